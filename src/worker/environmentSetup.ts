/**
 * What a workspace or a hook test gets from its environment, for provisioning, warm-pool
 * builds and hook tests: the resolved layers (variables, files), the inherited hooks, the
 * container env, the files written into the home (environment files, skills, MCP config,
 * system prompt), the skills to fetch, and a hash of them all, so a warm workspace is claimed
 * only while its environment is unchanged. Secrets are opened here, in the worker, never in
 * workflow history.
 */
import { createHash } from 'node:crypto';
import type { AgentSettings, McpServer } from '../agents/adapters';
import type { EnvironmentSkill } from '../agents/skills';
import { sealedField } from '../crypto/sealedFields';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { EnvironmentRow } from '../db/environmentsRepository';
import type { SkillsRegistryRow } from '../db/skillsRegistriesRepository';
import type { HookKind } from '../db/hooksRepository';
import { EnvironmentGoneError, inheritedHookChain, resolveLayers, type ResolvedEnvironment, type ResolvedHook } from '../domain/resolution';
import type { WorkspaceFile } from '../sandbox/workspace';
import { layeredSkills } from './skills';

type ResolutionDeps = { repos: Pick<Repositories, 'environments' | 'environmentResources'>; secretBox: SecretBox };

export type SkillsRegistry = Pick<SkillsRegistryRow, 'repository_full_name'>;

export type ResolvedWorkspaceEnvironment = ResolvedEnvironment<EnvironmentRow>;

export interface EnvironmentSetup {
  resolved: ResolvedWorkspaceEnvironment;
  env: Record<string, string>;
  files: WorkspaceFile[];
  /** The skills to fetch and install (`./skills.ts`): named here, fetched by the caller. */
  skills: EnvironmentSkill[];
  /** Skills registries of the layers, the environment's own first; their skills are discovered when fetched. */
  registries: SkillsRegistry[];
  hash: string;
}

/** One warm hook's log, kept on the pool entry and copied to the replica's hook logs at claim. */
export interface WarmHookLog {
  hook_type: 'global' | 'repository';
  hook_name: string;
  script: string;
  output: string;
  output_total_chars: number;
  exit_code: number;
  timed_out: boolean;
  executed_at: string;
}

/** Sourced by login shells (`~/.profile`): the per-replica variables of a warm workspace. */
export const LOGIN_ENV_FILE = '~/.hangar/env.sh';
export const PROFILE_HOOK_SCRIPT = `grep -q 'hangar/env.sh' ~/.profile 2>/dev/null || printf '\\n[ -r "$HOME/.hangar/env.sh" ] && . "$HOME/.hangar/env.sh"\\n' >> ~/.profile`;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function loginEnvScript(env: Record<string, string>): string {
  const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  return (
    Object.entries(env)
      .filter(([name]) => ENV_NAME.test(name))
      .map(([name, value]) => `export ${name}=${quote(value)}`)
      .join('\n') + '\n'
  );
}

/** The environment's layers with their variables and files opened; EnvironmentGoneError when it no longer exists. */
export async function resolveEnvironment(deps: ResolutionDeps, organizationId: string, environmentId: string): Promise<ResolvedWorkspaceEnvironment> {
  const { environments, environmentResources } = deps.repos;
  const layers = await environments.layers(organizationId, environmentId);
  if (!layers) throw new EnvironmentGoneError(`environment ${environmentId} no longer exists`);
  const ids = layers.map((l) => l.environment.id);
  const [variables, files] = await Promise.all([environmentResources.variables.ofEnvironments(ids), environmentResources.files.ofEnvironments(ids)]);
  return resolveLayers(layers, { variables, files }, (sealed, field) => deps.secretBox.open(sealed, field));
}

/** The active saved hook of each layer below the environment, in run order. */
export async function inheritedHooks(repos: Pick<Repositories, 'hooks'>, resolved: ResolvedWorkspaceEnvironment, kind: HookKind): Promise<ResolvedHook[]> {
  const below = resolved.layers.filter((l) => l.layer !== 'environment');
  if (below.length === 0) return [];
  return inheritedHookChain(below, await repos.hooks.activeOf(below.map((l) => l.environment.id), kind));
}

/**
 * What every agent turn of a workspace of the environment gets: its system prompt (with the
 * owner's personal preferences) and the MCP servers of its layers, a later layer's server
 * replacing an earlier one of the same name. Read at each turn, so a change applies at once.
 */
export async function agentSettings(deps: ResolutionDeps, organizationId: string, environmentId: string): Promise<AgentSettings> {
  const layers = await deps.repos.environments.layers(organizationId, environmentId);
  if (!layers) throw new EnvironmentGoneError(`environment ${environmentId} no longer exists`);
  const env = layers[layers.length - 1]!.environment;
  const rows = await deps.repos.environmentResources.mcps.ofEnvironments(layers.map((l) => l.environment.id));
  const rank = new Map(layers.map((l, i) => [l.environment.id, i]));
  const mcpServers: Record<string, McpServer> = {};
  for (const row of [...rows].sort((a, b) => rank.get(a.environment_id)! - rank.get(b.environment_id)!)) {
    mcpServers[row.name] = { transport: row.transport, ...JSON.parse(deps.secretBox.open(row.config_sealed, sealedField('environment_mcps', 'config_sealed', row.id))) } as McpServer;
  }
  const prompt = [env.system_prompt, env.personal_preferences].filter(Boolean).join('\n\n');
  return { systemPrompt: prompt || null, mcpServers };
}

/** The hooks of `kind` a workspace of the environment runs, in order: the inherited ones, then its own. */
export async function hookChain(repos: Pick<Repositories, 'hooks'>, resolved: ResolvedWorkspaceEnvironment, kind: HookKind): Promise<Array<{ layer: string; script: string }>> {
  const own = await repos.hooks.active(resolved.environment.id, kind);
  return [
    ...(await inheritedHooks(repos, resolved, kind)).map((h) => ({ layer: h.layer, script: h.content })),
    ...(own ? [{ layer: resolved.environment.is_global ? 'global' : 'environment', script: own.content }] : []),
  ];
}

export async function environmentSetup(
  deps: ResolutionDeps & { repos: Pick<Repositories, 'skillsRegistries'>; workspaceApiUrl: string },
  organizationId: string,
  environmentId: string,
): Promise<EnvironmentSetup> {
  const resolved = await resolveEnvironment(deps, organizationId, environmentId);
  const files: WorkspaceFile[] = resolved.files;
  const layerIds = resolved.layers.map((l) => l.environment.id);
  const skills = await layeredSkills(deps.repos, layerIds);
  const registries = await layeredRegistries(deps.repos, layerIds);
  const env = { ...resolved.variables, HANGAR_API_URL: deps.workspaceApiUrl };
  const sortedEnv = Object.entries(env).sort(([a], [b]) => a.localeCompare(b));
  // Skills by slug and source, not content: a warm workspace keeps what it fetched when built.
  // Left out when there are none, so entries built before skills were installed stay claimable.
  const hash = createHash('sha256')
    .update(
      JSON.stringify({
        env: sortedEnv,
        files,
        ...(skills.length > 0 ? { skills: skills.map((s) => [s.slug, s.source]) } : {}),
        ...(registries.length > 0 ? { registries: registries.map((r) => r.repository_full_name.toLowerCase()) } : {}),
      }),
    )
    .digest('hex');
  return { resolved, env, files, skills, registries, hash };
}

/** The layers' skills registries (`layerIds` from Global up), the environment's own first, each layer's oldest first. */
async function layeredRegistries(repos: Pick<Repositories, 'skillsRegistries'>, layerIds: string[]): Promise<SkillsRegistry[]> {
  const rank = new Map(layerIds.map((id, i) => [id, i]));
  const rows = await repos.skillsRegistries.ofEnvironments(layerIds);
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => rank.get(b.row.environment_id)! - rank.get(a.row.environment_id)! || a.i - b.i)
    .map(({ row }) => ({ repository_full_name: row.repository_full_name }));
}
