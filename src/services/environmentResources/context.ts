/**
 * What every sub-resource service shares: the access rules of the parent environment, one
 * transaction per write that also bumps the environment's `updated_at`, and 409s for the
 * unique indexes.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../../crypto/secretBox';
import type { EnvironmentResourcesRepository } from '../../db/environmentResourcesRepository';
import type { EnvironmentRow, EnvironmentsRepository } from '../../db/environmentsRepository';
import { conflict, notFound } from '../../domain/errors';
import { isUniqueViolation } from '../../db/errors';
import type { EnvironmentsService } from '../environments';
import type { Actor } from '../../domain/actor';

export interface ResourceDeps {
  db: Knex;
  secretBox: SecretBox;
  environments: Pick<EnvironmentsService, 'access'>;
  environmentsRepo: Pick<EnvironmentsRepository, 'update' | 'ensureGlobal'>;
  repo: EnvironmentResourcesRepository;
}

export interface ResourceContext extends ResourceDeps {
  read<T>(actor: Actor, environmentId: string, fn: (env: EnvironmentRow, trx: Knex) => Promise<T>): Promise<T>;
  write<T>(actor: Actor, environmentId: string, fn: (env: EnvironmentRow, trx: Knex) => Promise<T>): Promise<T>;
}

export function createResourceContext(deps: ResourceDeps): ResourceContext {
  const { db, environments, environmentsRepo } = deps;
  return {
    ...deps,
    async read(actor, environmentId, fn) {
      const env = await environments.access(actor, environmentId);
      return fn(env, db);
    },
    write(actor, environmentId, fn) {
      return db.transaction(async (trx) => {
        const env = await environments.access(actor, environmentId, trx);
        // Bumping `updated_at` first also row-locks the environment, so concurrent writes to
        // one environment's sub-resources (and their inheritance checks) run one at a time.
        await environmentsRepo.update(actor.organizationId, env.id, {}, trx);
        return fn(env, trx);
      });
    },
  };
}

export const iso = (date: Date) => date.toISOString();

export function found<T>(row: T | null, what: string): T {
  if (!row) throw notFound(what);
  return row;
}

/** Maps a unique violation to a 409 by constraint name; anything else is rethrown. */
export function conflictOn(messages: Record<string, string>) {
  return (err: unknown): never => {
    if (isUniqueViolation(err)) {
      const constraint = (err as { constraint?: string }).constraint ?? '';
      throw conflict(messages[constraint] ?? Object.values(messages)[0]!);
    }
    throw err;
  };
}
