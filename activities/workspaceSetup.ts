/**
 * What a workspace gets from its environment, shared by provisioning and warm-pool builds:
 * the container env (resolved variables), the files written into the home (environment files,
 * skills, MCP config, system prompt), and a hash of both, so a warm workspace is claimed only
 * while its environment is unchanged.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { SecretBox } from '../src/crypto/secretBox';
import type { WorkspaceFile } from '../src/sandbox/workspace';
import type { ResolutionService, ResolvedEnvironment } from '../src/services/resolution';

export interface EnvironmentSetup {
  resolved: ResolvedEnvironment;
  env: Record<string, string>;
  files: WorkspaceFile[];
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

export async function environmentSetup(
  deps: { db: Knex; resolution: ResolutionService; secretBox: SecretBox; publicBaseUrl?: string },
  organizationId: string,
  environmentId: string,
): Promise<EnvironmentSetup> {
  const { db } = deps;
  const resolved = await deps.resolution.resolve(organizationId, environmentId);
  const ids = resolved.layers.map((l) => l.environment.id);
  const skills = await db('environment_skills').whereIn('environment_id', ids).orderBy(['environment_id', 'name']).select('name', 'slug', 'source');
  const mcps = await db('environment_mcps').whereIn('environment_id', ids).orderBy(['environment_id', 'name']).select('name', 'transport', 'config_sealed');
  const mcpServers = Object.fromEntries(mcps.map((m: { name: string; transport: string; config_sealed: string }) => [m.name, { transport: m.transport, ...JSON.parse(deps.secretBox.open(m.config_sealed)) }]));
  const files: WorkspaceFile[] = [
    ...resolved.files,
    { path: '~/.hangar/skills.json', content: JSON.stringify({ skills }, null, 2) + '\n' },
    { path: '~/.hangar/mcp.json', content: JSON.stringify({ mcpServers }, null, 2) + '\n' },
    ...(resolved.environment.system_prompt || resolved.environment.personal_preferences
      ? [{ path: '~/.hangar/system-prompt.md', content: [resolved.environment.system_prompt, resolved.environment.personal_preferences].filter(Boolean).join('\n\n') + '\n' }]
      : []),
  ];
  const env = { ...resolved.variables, ...(deps.publicBaseUrl ? { HANGAR_API_URL: deps.publicBaseUrl } : {}) };
  const sortedEnv = Object.entries(env).sort(([a], [b]) => a.localeCompare(b));
  const hash = createHash('sha256').update(JSON.stringify({ env: sortedEnv, files })).digest('hex');
  return { resolved, env, files, hash };
}

/** The repositories an environment is bound to, as a replica snapshots them at create. */
export async function environmentRepositories(db: Knex, env: { repository_id: string | null; repository_set_id: string | null }) {
  type Repo = { id: string; name: string; url: string; default_branch: string };
  if (env.repository_id) return (await db('repositories').where({ id: env.repository_id }).select('id', 'name', 'url', 'default_branch')) as Repo[];
  if (env.repository_set_id) {
    return (await db('repository_set_members as m')
      .join('repositories as r', 'r.id', 'm.repository_id')
      .where('m.repository_set_id', env.repository_set_id)
      .orderBy('m.position')
      .select('r.id', 'r.name', 'r.url', 'r.default_branch')) as Repo[];
  }
  return [];
}
