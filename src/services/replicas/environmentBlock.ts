/**
 * The `include=environment` block of a replica (interop §4.2): what the workspace was given,
 * by name only — never a value — and which agents it can run. Skills are the ones its last
 * provisioning really wrote (by slug), not those enabled: a skill that could not be fetched
 * is not reported, and nothing is before provisioning has finished.
 */
import { AGENTS } from '../../agents/catalog';
import type { Repositories } from '../../db';
import type { ReplicaRow } from '../../db/replicasRepository';
import type { Integration } from '../../domain/plugins';

/** What the workspace can reach (`integrations`) and the plugins it gets (see src/services/plugins/workspace.ts). */
export type IntegrationsOf = (row: ReplicaRow) => Promise<{ integrations: Record<Integration, boolean>; plugins: unknown[] }>;

const NONE = { integrations: { github: false, gitlab: false, linear: false, slack: false, google: false }, plugins: [] };

export async function environmentBlock(
  repos: Pick<Repositories, 'environments' | 'environmentResources' | 'credentials' | 'replicaLogs'>,
  row: ReplicaRow,
  integrationsOf?: IntegrationsOf,
) {
  const layers = row.environment_id ? await repos.environments.layers(row.organization_id, row.environment_id) : null;
  const global = layers ? null : await repos.environments.findGlobal(row.organization_id);
  const ids = layers ? layers.map((l) => l.environment.id) : global ? [global.id] : [];
  const [names, orgCredentials, ownCredentials, hookLogs, warmLogs, reach] = await Promise.all([
    repos.environmentResources.namesOf(ids),
    repos.credentials.listFor({ organizationId: row.organization_id, userId: null }),
    row.user_id ? repos.credentials.listFor({ organizationId: row.organization_id, userId: row.user_id }) : [],
    repos.replicaLogs.hookLogs(row.id, 'start'),
    repos.replicaLogs.hookLogs(row.id, 'warm'),
    integrationsOf ? integrationsOf(row) : NONE,
  ]);
  const codingAgents = Object.fromEntries(
    Object.keys(AGENTS).map((agent) => {
      // A personal credential wins over the organization's, as at run time.
      const found = ownCredentials.find((c) => c.agent === agent) ?? orgCredentials.find((c) => c.agent === agent);
      // The original requires a string: `none` when the agent has no credential.
      return [agent, { available: !!found, auth_method: found?.kind ?? 'none' }];
    }),
  );
  const failed = hookLogs.some((h) => h.exit_code !== 0 || h.timed_out);
  // Warm hooks ran when the workspace came from a warm pool (their logs are copied at claim).
  const warmFailure = warmLogs.find((h) => h.exit_code !== 0 || h.timed_out);
  return {
    environment_id: row.environment_id,
    engine_version: 'hangar-1',
    files_uploaded: names.files,
    env_vars_set: names.variables,
    skills_installed: row.skills_installed ?? [],
    integrations: reach.integrations,
    // Hangar's own: the plugins the workspace gets (the original's block has none).
    plugins: reach.plugins,
    coding_agents: codingAgents,
    hooks: {
      global_warm_hook: {
        status: warmLogs.length === 0 ? 'none' : warmFailure ? 'failed' : 'completed',
        details: warmFailure ? (warmFailure.timed_out ? 'timed out' : `exited with code ${warmFailure.exit_code}`) : null,
      },
      // Hangar runs no per-repository hooks (replicas.json); the original's strings say so.
      repositories: row.repositories.map((r) => ({ repository_name: r.name, warm_hook: 'none', start_hook: 'none' })),
      environment_start_hooks: { status: hookLogs.length === 0 ? 'none' : failed ? 'failed' : 'completed', count: hookLogs.length },
    },
    provisioning_error: (row.config.provisioning_error as { message?: string } | undefined) ?? null,
    last_updated_at: row.updated_at.toISOString(),
  };
}
