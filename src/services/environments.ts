/**
 * Environment rules: the `global` alias, team vs personal scope, source-backed personal
 * environments (live inheritance, locked config), copy-on-create for team environments, and
 * the conditions under which one may be deleted.
 */
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { EnvironmentCounts, EnvironmentPatch, EnvironmentRow } from '../db/environmentsRepository';
import type { Transaction } from '../db/transaction';
import { invalid, conflict, forbidden, isDomainError, notFound, type DomainError } from '../domain/errors';
import { isUniqueViolation } from '../db/errors';
import type { Actor } from '../domain/actor';
import { accessEnvironment, GLOBAL_ALIAS } from '../core/environments/access';
import type { CreateEnvironmentInput, UpdateEnvironmentInput } from '../schemas/environments';

export { GLOBAL_ALIAS };

export type Scope = 'org' | 'user' | 'all';

/** The bodies' own types, derived from their schemas (src/schemas/environments.ts). */
export type { CreateEnvironmentInput, UpdateEnvironmentInput };

/** Checks run on delete that live outside this module (automations reference environments). */
export type EnvironmentReferenceCheck = (environmentId: string, trx: Transaction) => Promise<string | null>;

export function serializeEnvironment(row: EnvironmentRow & EnvironmentCounts) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    user_id: row.user_id,
    name: row.name,
    description: row.description,
    is_global: row.is_global,
    repository_id: row.repository_id,
    repository_set_id: row.repository_set_id,
    system_prompt: row.system_prompt,
    mobile_testing_enabled: row.mobile_testing_enabled,
    personal_preferences: row.personal_preferences,
    source_environment_id: row.source_environment_id,
    variable_count: row.variable_count,
    file_count: row.file_count,
    skill_count: row.skill_count,
    mcp_count: row.mcp_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function createEnvironmentsService(deps: {
  repos: Pick<Repositories, 'transact' | 'environments' | 'codeRepositories'>;
  secretBox: SecretBox;
  referenceChecks?: EnvironmentReferenceCheck[];
}) {
  const { secretBox } = deps;
  const { transact, environments, codeRepositories: repositories } = deps.repos;
  const referenceChecks = deps.referenceChecks ?? [];

  /**
   * Resolves a path id to a row the actor may see. Another organization's or another
   * user's environment is 404; an org key reaching for a personal one is 403.
   */
  const access = (actor: Actor, id: string, trx?: Transaction): Promise<EnvironmentRow> => accessEnvironment(environments, actor, id, trx);

  async function checkBinding(actor: Actor, input: { repository_id?: string | null; repository_set_id?: string | null }, trx: Transaction) {
    if (input.repository_id && input.repository_set_id) {
      throw invalid('Invalid body', 'body: repository_id and repository_set_id are mutually exclusive');
    }
    if (input.repository_id && !(await repositories.find(actor.organizationId, input.repository_id, trx))) {
      throw notFound('Repository');
    }
    if (input.repository_set_id && !(await repositories.findSet(actor.organizationId, input.repository_set_id, trx))) {
      throw notFound('Repository set');
    }
  }

  async function withCounts(actor: Actor, id: string, trx?: Transaction) {
    const row = await environments.findWithCounts(actor.organizationId, id, trx);
    if (!row) throw notFound('Environment');
    return row;
  }

  function duplicateName(err: unknown): never {
    if (isUniqueViolation(err)) throw conflict('An environment with this name already exists in this scope');
    throw err;
  }

  return {
    access,

    async list(actor: Actor, query: { scope: Scope; page: number; limit: number }) {
      if (query.scope === 'user' && actor.keyKind === 'org') {
        throw forbidden('Organization API keys have no personal environments', 'use a personal API key for scope=user');
      }
      if (query.scope !== 'user') await environments.ensureGlobal(actor.organizationId);
      const { rows, total } = await environments.list({
        organizationId: actor.organizationId,
        team: query.scope !== 'user',
        personalUserId: query.scope === 'org' ? null : actor.userId,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return { rows, total };
    },

    get: async (actor: Actor, id: string) => withCounts(actor, (await access(actor, id)).id),

    async create(actor: Actor, input: CreateEnvironmentInput) {
      const personal = input.scope === 'user';
      if (personal && !actor.userId) {
        throw forbidden('Organization API keys cannot create personal environments', 'use a personal API key for scope=user');
      }
      if (!personal && input.personal_preferences != null) {
        throw invalid('Invalid body', 'body.personal_preferences: only personal environments have personal preferences');
      }
      if (personal && input.mobile_testing_enabled) {
        throw invalid('Invalid body', 'body.mobile_testing_enabled: only team environments can enable mobile testing');
      }
      return transact(async (trx) => {
        await checkBinding(actor, input, trx);
        let source: EnvironmentRow | null = null;
        if (input.source_environment_id) {
          source = await environments.lock(actor.organizationId, input.source_environment_id, trx);
          if (!source || (source.user_id !== null && source.user_id !== actor.userId)) throw notFound('Source environment');
          if (source.is_global || source.user_id !== null) {
            throw invalid('Invalid body', 'body.source_environment_id: must be a team environment (not Global, not personal)');
          }
        }
        const inherits = personal && source !== null;
        if (inherits && (input.repository_id || input.repository_set_id || input.system_prompt != null)) {
          throw invalid(
            'Invalid body',
            'body: a source-backed personal environment inherits its repository binding and system_prompt; set personal_preferences instead',
          );
        }
        const copyFrom = !personal && source ? source : null;
        const row = await environments
          .insert(
            {
              organization_id: actor.organizationId,
              user_id: personal ? actor.userId : null,
              name: input.name,
              description: input.description ?? null,
              is_global: false,
              repository_id: input.repository_id ?? copyFrom?.repository_id ?? null,
              repository_set_id: input.repository_set_id ?? (input.repository_id ? null : copyFrom?.repository_set_id ?? null),
              system_prompt: input.system_prompt ?? copyFrom?.system_prompt ?? null,
              personal_preferences: input.personal_preferences ?? null,
              mobile_testing_enabled: input.mobile_testing_enabled ?? false,
              source_environment_id: inherits ? source!.id : null,
            },
            trx,
          )
          .catch(duplicateName);
        if (copyFrom) await environments.copyConfig(copyFrom.id, row.id, (sealed, from, to) => secretBox.seal(secretBox.open(sealed, from), to), trx);
        return withCounts(actor, row.id, trx);
      });
    },

    async update(actor: Actor, id: string, input: UpdateEnvironmentInput) {
      if (id === GLOBAL_ALIAS) {
        throw invalid(
          'The Global environment cannot be patched',
          'manage its variables, files, skills, MCP servers and hooks through /v1/environments/global/...',
        );
      }
      return transact(async (trx) => {
        const row = await access(actor, id, trx);
        if (row.is_global) throw invalid('The Global environment cannot be patched', 'use its nested endpoints');
        if (row.source_environment_id && ('repository_id' in input || 'repository_set_id' in input || 'system_prompt' in input)) {
          throw invalid('Invalid body', 'body: this environment inherits its repository binding and system_prompt from its source');
        }
        if (row.user_id === null && input.personal_preferences != null) {
          throw invalid('Invalid body', 'body.personal_preferences: only personal environments have personal preferences');
        }
        if (row.user_id !== null && input.mobile_testing_enabled) {
          throw invalid('Invalid body', 'body.mobile_testing_enabled: only team environments can enable mobile testing');
        }
        const patch: EnvironmentPatch = { ...input };
        // Binding to one kind of target clears the other.
        if (input.repository_id) patch.repository_set_id = null;
        if (input.repository_set_id) patch.repository_id = null;
        await checkBinding(actor, input, trx);
        await environments.update(actor.organizationId, row.id, patch, trx).catch(duplicateName);
        return withCounts(actor, row.id, trx);
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      if (id === GLOBAL_ALIAS) throw conflict('The Global environment cannot be deleted');
      await transact(async (trx) => {
        const row = await access(actor, id, trx);
        if (row.is_global) throw conflict('The Global environment cannot be deleted');
        await environments.lock(actor.organizationId, row.id, trx);
        const inheritors = await environments.countInheritors(row.id, trx);
        if (inheritors > 0) {
          throw conflict('Personal environments inherit from this environment', `${inheritors} personal environment(s) use it as their source`);
        }
        for (const check of referenceChecks) {
          const reason = await check(row.id, trx);
          if (reason) throw conflict('The environment is still referenced', reason);
        }
        await environments.delete(actor.organizationId, row.id, trx);
      });
    },
  };
}

export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;

/**
 * Checks that the actor may see the environment a record (a warm pool, one of its workspaces)
 * belongs to; if not, the record itself is what is not found, answered exactly as a record
 * that does not exist, so a member cannot learn that another member's exists.
 */
export async function accessThroughEnvironment(
  environments: Pick<EnvironmentsService, 'access'>,
  actor: Actor,
  environmentId: string,
  missing: () => DomainError,
): Promise<void> {
  try {
    await environments.access(actor, environmentId);
  } catch (err) {
    throw isDomainError(err, 'not_found') ? missing() : err;
  }
}
