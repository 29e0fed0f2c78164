/**
 * What a workspace (or a hook test) of an environment gets: Global underneath, then the
 * source environment of a source-backed personal one, then the environment itself. A later
 * layer wins, except that a personal environment cannot override an inherited variable
 * whose owner did not mark it `personal_override_allowed`.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../crypto/secretBox';
import type { EnvironmentRow } from '../db/environmentsRepository';
import type { HookKind } from '../../workflows/shared';

export interface ResolvedFile {
  path: string;
  content: string;
}

export interface ResolvedHook {
  /** 'global' | 'source' | 'environment' */
  layer: string;
  content: string;
}

export interface ResolvedEnvironment {
  environment: EnvironmentRow;
  layers: Array<{ layer: string; environment: EnvironmentRow }>;
  variables: Record<string, string>;
  files: ResolvedFile[];
}

export class EnvironmentGoneError extends Error {
  override name = 'EnvironmentGone';
}

export function createResolutionService(deps: { db: Knex; secretBox: SecretBox }) {
  const { db, secretBox } = deps;

  async function layersOf(organizationId: string, environmentId: string) {
    const env: EnvironmentRow | undefined = await db('environments').where({ organization_id: organizationId, id: environmentId }).first();
    if (!env) throw new EnvironmentGoneError(`environment ${environmentId} no longer exists`);
    const layers: Array<{ layer: string; environment: EnvironmentRow }> = [];
    if (!env.is_global) {
      const global: EnvironmentRow | undefined = await db('environments').where({ organization_id: organizationId, is_global: true }).first();
      if (global) layers.push({ layer: 'global', environment: global });
      if (env.source_environment_id) {
        const source: EnvironmentRow | undefined = await db('environments').where({ id: env.source_environment_id }).first();
        if (source) layers.push({ layer: 'source', environment: source });
      }
    }
    layers.push({ layer: 'environment', environment: env });
    return { env, layers };
  }

  return {
    async resolve(organizationId: string, environmentId: string): Promise<ResolvedEnvironment> {
      const { env, layers } = await layersOf(organizationId, environmentId);
      const ids = layers.map((l) => l.environment.id);
      const rank = new Map(ids.map((id, i) => [id, i]));
      const byLayer = <T extends { environment_id: string }>(rows: T[]) =>
        rows.sort((a, b) => rank.get(a.environment_id)! - rank.get(b.environment_id)!);

      const variableRows = byLayer(
        await db('environment_variables').whereIn('environment_id', ids).select('environment_id', 'key', 'value_sealed', 'personal_override_allowed'),
      );
      const personal = env.user_id !== null;
      const variables: Record<string, string> = {};
      const locked = new Set<string>();
      for (const row of variableRows) {
        const own = row.environment_id === env.id;
        if (own && personal && locked.has(row.key)) continue;
        variables[row.key] = secretBox.open(row.value_sealed);
        if (!own && !row.personal_override_allowed) locked.add(row.key);
        else locked.delete(row.key);
      }

      const fileRows = byLayer(await db('environment_files').whereIn('environment_id', ids).select('environment_id', 'path', 'content_sealed'));
      const files = new Map<string, string>();
      for (const row of fileRows) {
        // A later layer's file wins over an earlier layer's file at its folder (or inside it).
        for (const path of files.keys()) {
          if (path.startsWith(row.path + '/') || row.path.startsWith(path + '/')) files.delete(path);
        }
        files.set(row.path, secretBox.open(row.content_sealed));
      }

      return {
        environment: env,
        layers,
        variables,
        files: [...files].map(([path, content]) => ({ path, content })),
      };
    },

    /** The active saved hook of each layer below the environment, in run order. */
    async inheritedHooks(resolved: ResolvedEnvironment, kind: HookKind): Promise<ResolvedHook[]> {
      const below = resolved.layers.filter((l) => l.layer !== 'environment');
      if (below.length === 0) return [];
      const rows: Array<{ environment_id: string; content: string }> = await db('environment_hooks')
        .whereIn('environment_id', below.map((l) => l.environment.id))
        .where({ kind, is_active: true })
        .select('environment_id', 'content');
      return below.flatMap((l) => {
        const row = rows.find((r) => r.environment_id === l.environment.id);
        return row && row.content.trim() ? [{ layer: l.layer, content: row.content }] : [];
      });
    },
  };
}

export type ResolutionService = ReturnType<typeof createResolutionService>;
