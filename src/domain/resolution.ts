/**
 * What a workspace (or a hook test) of an environment gets: Global underneath, then the
 * source environment of a source-backed personal one, then the environment itself. A later
 * layer wins, except that a personal environment cannot override an inherited variable
 * whose owner did not mark it `personal_override_allowed`. Reserved variables and protected
 * file paths (`workspaceSettings.ts`) saved before those rules existed are left out. Pure: the
 * rows come in, opened.
 */
import { sealedField, type SealedField } from '../crypto/sealedFields';
import { protectedFilePath, reservedVariable } from './workspaceSettings';

/** The fields of an environment the layering looks at. */
export interface LayerEnvironment {
  id: string;
  user_id: string | null;
  is_global: boolean;
  source_environment_id: string | null;
}

export type LayerName = 'global' | 'source' | 'environment';

export interface Layer<E extends LayerEnvironment = LayerEnvironment> {
  layer: LayerName;
  environment: E;
}

export interface ResolvedFile {
  path: string;
  content: string;
}

export interface ResolvedEnvironment<E extends LayerEnvironment = LayerEnvironment> {
  environment: E;
  layers: Array<Layer<E>>;
  variables: Record<string, string>;
  files: ResolvedFile[];
}

/** A hook inherited from a layer below the environment. */
export interface ResolvedHook {
  layer: LayerName;
  content: string;
}

/** The environment a workspace or hook test was set up from no longer exists. */
export class EnvironmentGoneError extends Error {
  override name = 'EnvironmentGone';
}

/** The layers of `env`, bottom first, from the organization's Global and the env's source (either may be missing). */
export function layersOf<E extends LayerEnvironment>(env: E, global: E | null, source: E | null): Array<Layer<E>> {
  if (env.is_global) return [{ layer: 'environment', environment: env }];
  return [
    ...(global ? [{ layer: 'global' as const, environment: global }] : []),
    ...(source ? [{ layer: 'source' as const, environment: source }] : []),
    { layer: 'environment', environment: env },
  ];
}

/**
 * Merges the layers' variables and files. Rows may come in any order; `open` turns a sealed
 * value into its text (the field names the row it is bound to).
 */
export function resolveLayers<E extends LayerEnvironment>(
  layers: Array<Layer<E>>,
  rows: {
    variables: Array<{ id: string; environment_id: string; key: string; value_sealed: string; personal_override_allowed: boolean }>;
    files: Array<{ id: string; environment_id: string; path: string; content_sealed: string }>;
  },
  open: (sealed: string, field: SealedField) => string,
): ResolvedEnvironment<E> {
  const env = layers[layers.length - 1]!.environment;
  const rank = new Map(layers.map((l, i) => [l.environment.id, i]));
  const byLayer = <T extends { environment_id: string }>(list: T[]) => [...list].sort((a, b) => rank.get(a.environment_id)! - rank.get(b.environment_id)!);

  const personal = env.user_id !== null;
  const variables: Record<string, string> = {};
  const locked = new Set<string>();
  for (const row of byLayer(rows.variables)) {
    // Saved before the rule existed: never applied (the API refuses new ones).
    if (reservedVariable(row.key)) continue;
    const own = row.environment_id === env.id;
    if (own && personal && locked.has(row.key)) continue;
    variables[row.key] = open(row.value_sealed, sealedField('environment_variables', 'value_sealed', row.id));
    if (!own && !row.personal_override_allowed) locked.add(row.key);
    else locked.delete(row.key);
  }

  const files = new Map<string, string>();
  for (const row of byLayer(rows.files)) {
    if (protectedFilePath(row.path)) continue;
    // A later layer's file wins over an earlier layer's file at its folder (or inside it).
    for (const path of files.keys()) {
      if (path.startsWith(row.path + '/') || row.path.startsWith(path + '/')) files.delete(path);
    }
    files.set(row.path, open(row.content_sealed, sealedField('environment_files', 'content_sealed', row.id)));
  }

  return { environment: env, layers, variables, files: [...files].map(([path, content]) => ({ path, content })) };
}

/** The non-empty hook of each layer below the environment, in run order. */
export function inheritedHookChain(layers: Layer[], hooks: Array<{ environment_id: string; content: string }>): ResolvedHook[] {
  return layers
    .filter((l) => l.layer !== 'environment')
    .flatMap((l) => {
      const hook = hooks.find((h) => h.environment_id === l.environment.id);
      return hook && hook.content.trim() ? [{ layer: l.layer, content: hook.content }] : [];
    });
}
