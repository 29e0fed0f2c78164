/**
 * Organization defaults: the coding agent, a model per agent and an environment that
 * automations, replicas and integrations inherit when they leave those fields null.
 */
import { AGENT_IDS, type AgentId } from '../agents/catalog';
import { isModelCompatible } from '../agents/defaults';
import { DEFAULT_CODING_AGENT, resolveAgentAndModel, type ModelCompatibility } from '../domain/agentPolicy';

export { DEFAULT_CODING_AGENT, pickModel, type ModelCompatibility } from '../domain/agentPolicy';
import type { Repositories } from '../db';
import type { OrganizationSettingsPatch, OrganizationSettingsRow } from '../db/organizationSettingsRepository';
import type { Transaction } from '../db/transaction';
import { invalid, forbidden, notFound } from '../domain/errors';
import type { EnvironmentReferenceCheck } from './environments';
import type { Actor } from '../domain/actor';

export interface OrganizationSettings {
  default_coding_agent: AgentId;
  default_models: Record<AgentId, string | null>;
  default_environment_id: string | null;
  /** Issues opened by these logins, or in these connected repositories, start a workspace without a mention. */
  auto_responder_allowlist: { logins: string[]; repository_ids: string[] };
  /** A failed check or pipeline on a workspace's own pull/merge request is sent to its agent. */
  ci_failure_response: boolean;
  /** Null until the settings are first changed. */
  updated_at: string | null;
}

export function serializeSettings(row: OrganizationSettingsRow | null): OrganizationSettings {
  const stored = row?.default_models ?? {};
  return {
    default_coding_agent: row?.default_coding_agent ?? DEFAULT_CODING_AGENT,
    default_models: Object.fromEntries(AGENT_IDS.map((a) => [a, stored[a] ?? null])) as Record<AgentId, string | null>,
    default_environment_id: row?.default_environment_id ?? null,
    auto_responder_allowlist: { logins: row?.auto_responder_logins ?? [], repository_ids: row?.auto_responder_repository_ids ?? [] },
    ci_failure_response: row?.ci_failure_response ?? true,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}

/** The API's patch: the allowlist is one object whose lists, when given, replace the stored ones. */
export interface OrganizationSettingsUpdate extends Omit<OrganizationSettingsPatch, 'auto_responder_logins' | 'auto_responder_repository_ids'> {
  auto_responder_allowlist?: { logins?: string[]; repository_ids?: string[] };
}

export function createOrganizationSettingsService(deps: {
  repos: Pick<Repositories, 'transact' | 'organizationSettings' | 'environments' | 'codeRepositories'>;
  /** Whether an agent accepts a model id; the built-in lists unless a catalog says more. */
  isModelCompatible?: ModelCompatibility;
}) {
  const { transact, organizationSettings: repo, environments } = deps.repos;
  const compatible = deps.isModelCompatible ?? isModelCompatible;

  async function checkDefaultEnvironment(actor: Actor, environmentId: string, trx: Transaction) {
    // FOR SHARE: a concurrent delete of this environment waits, then sees it is the default.
    const env = await environments.lockShared(actor.organizationId, environmentId, trx);
    if (!env || (env.user_id !== null && env.user_id !== actor.userId)) throw notFound('Environment');
    if (env.user_id !== null) {
      throw invalid('Invalid body', 'body.default_environment_id: must be a team environment, not a personal one');
    }
  }

  function checkModels(models: Partial<Record<AgentId, string | null>>) {
    for (const [agent, model] of Object.entries(models) as Array<[AgentId, string | null]>) {
      if (model !== null && !compatible(agent, model)) {
        throw invalid('Invalid body', `body.default_models.${agent}: ${agent} does not accept the model "${model}"`);
      }
    }
  }

  /** Repositories of the allowlist must be the organization's own (another's is as unknown as a missing one). */
  async function checkRepositories(actor: Actor, ids: string[], trx: Transaction) {
    const found = new Set((await deps.repos.codeRepositories.findMany(actor.organizationId, ids, trx)).map((r) => r.id));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length) throw invalid('Invalid body', `body.auto_responder_allowlist.repository_ids: no connected repository ${unknown.join(', ')}`);
  }

  /** Refuses to delete the environment the organization uses as its default (a 409). */
  const environmentReferenceCheck: EnvironmentReferenceCheck = async (environmentId, trx) =>
    (await repo.isDefaultEnvironment(environmentId, trx))
      ? "it is the organization's default environment; change default_environment_id in /v1/organization/settings first"
      : null;

  return {
    environmentReferenceCheck,

    async get(actor: Actor): Promise<OrganizationSettings> {
      return serializeSettings(await repo.find(actor.organizationId));
    },

    async update(actor: Actor, body: OrganizationSettingsUpdate): Promise<OrganizationSettings> {
      if (!actor.isAdmin) throw forbidden('Only organization admins can change organization settings');
      const { auto_responder_allowlist: allowlist, ...patch } = body as OrganizationSettingsUpdate & OrganizationSettingsPatch;
      if (patch.default_models) checkModels(patch.default_models);
      if (allowlist?.logins) patch.auto_responder_logins = allowlistLogins(allowlist.logins);
      if (allowlist?.repository_ids) patch.auto_responder_repository_ids = [...new Set(allowlist.repository_ids)];
      return transact(async (trx) => {
        if (patch.default_environment_id) await checkDefaultEnvironment(actor, patch.default_environment_id, trx);
        if (patch.auto_responder_repository_ids?.length) await checkRepositories(actor, patch.auto_responder_repository_ids, trx);
        return serializeSettings(await repo.upsert(actor.organizationId, patch, trx));
      });
    },

    /** The organization's settings with defaults applied, for services acting without an HTTP actor. */
    async forOrganization(organizationId: string, trx?: Transaction): Promise<OrganizationSettings> {
      return serializeSettings(await repo.find(organizationId, trx));
    },

    /**
     * Fills what a replica or automation left null: agent → the organization's default agent;
     * model → the organization's default for that agent → the agent's default. A model the
     * agent does not accept falls back the same way.
     */
    async resolveAgentAndModel(
      organizationId: string,
      requested: { agent?: AgentId | null; model?: string | null },
      trx?: Transaction,
    ): Promise<{ agent: AgentId; model: string }> {
      return resolveAgentAndModel(await repo.find(organizationId, trx), requested, compatible);
    },
  };
}

/** Logins as GitHub and GitLab compare them: without a leading "@", in lower case, once each. */
function allowlistLogins(logins: string[]): string[] {
  return [...new Set(logins.map((l) => l.trim().replace(/^@/, '').toLowerCase()))];
}

export type OrganizationSettingsService = ReturnType<typeof createOrganizationSettingsService>;
