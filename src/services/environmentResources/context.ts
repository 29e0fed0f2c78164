/**
 * What every sub-resource service shares: the access rules of the parent environment, one
 * transaction per write that also bumps the environment's `updated_at`, 409s for the unique
 * indexes, and the reads and writes every sub-resource table answers the same way.
 */
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import type { EnvironmentResourcesRepository, Insert, Patch, Scoped, ScopedTable } from '../../db/environmentResourcesRepository';
import type { EnvironmentRow } from '../../db/environmentsRepository';
import type { Transaction } from '../../db/transaction';
import { conflict, notFound } from '../../domain/errors';
import { isUniqueViolation } from '../../db/errors';
import type { EnvironmentsService } from '../environments';
import type { Actor } from '../../domain/actor';

export interface ResourceDeps {
  secretBox: SecretBox;
  environments: Pick<EnvironmentsService, 'access'>;
  repos: Pick<Repositories, 'transact' | 'environments' | 'environmentResources'>;
}

export interface ResourceContext extends ResourceDeps {
  repo: EnvironmentResourcesRepository;
  /** Reads outside a transaction: `trx` is undefined. */
  read<T>(actor: Actor, environmentId: string, fn: (env: EnvironmentRow, trx?: Transaction) => Promise<T>): Promise<T>;
  write<T>(actor: Actor, environmentId: string, fn: (env: EnvironmentRow, trx: Transaction) => Promise<T>): Promise<T>;
}

export function createResourceContext(deps: ResourceDeps): ResourceContext {
  const { environments, repos } = deps;
  return {
    ...deps,
    repo: repos.environmentResources,
    async read(actor, environmentId, fn) {
      const env = await environments.access(actor, environmentId);
      return fn(env);
    },
    write(actor, environmentId, fn) {
      return repos.transact(async (trx) => {
        const env = await environments.access(actor, environmentId, trx);
        // Bumping `updated_at` first also row-locks the environment, so concurrent writes to
        // one environment's sub-resources (and their inheritance checks) run one at a time.
        await repos.environments.update(actor.organizationId, env.id, {}, trx);
        return fn(env, trx);
      });
    },
  };
}

const iso = (date: Date) => date.toISOString();

function found<T>(row: T | null, what: string): T {
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

/** A record's answer: its scope, then `fields`, then when it was created. */
export function scopedView<Fields extends object>(row: Scoped, fields: Fields) {
  return { id: row.id, organization_id: row.organization_id, environment_id: row.environment_id, ...fields, created_at: iso(row.created_at) };
}

/** The same for a table whose rows change in place: `updated_at` comes last. */
export function updatableView<Fields extends object>(row: Scoped & { updated_at: Date }, fields: Fields) {
  return { ...scopedView(row, fields), updated_at: iso(row.updated_at) };
}

/**
 * The operations every sub-resource performs alike over its table: list, delete by id (404
 * when missing), and insert or update in a write's transaction (409 on a unique index, 404
 * when the row is gone), each answering the serialized record.
 */
export function scopedResource<Row extends Scoped, View>(
  ctx: ResourceContext,
  table: ScopedTable<Row>,
  spec: { what: string; serialize: (row: Row) => View; duplicate: (err: unknown) => never },
) {
  const { what, serialize, duplicate } = spec;
  return {
    list: (actor: Actor, environmentId: string): Promise<View[]> =>
      ctx.read(actor, environmentId, async (env, trx) => (await table.list(env.id, trx)).map(serialize)),

    remove: (actor: Actor, environmentId: string, id: string): Promise<void> =>
      ctx.write(actor, environmentId, async (env, trx) => {
        if (!(await table.delete(env.organization_id, env.id, id, trx))) throw notFound(what);
      }),

    current: async (env: EnvironmentRow, id: string, trx: Transaction): Promise<Row> =>
      found(await table.find(env.organization_id, env.id, id, trx), what),

    async insert(env: EnvironmentRow, values: Omit<Insert<Row>, 'organization_id' | 'environment_id'>, trx: Transaction): Promise<View> {
      const row = { organization_id: env.organization_id, environment_id: env.id, ...values } as Insert<Row>;
      return serialize(await table.insert(row, trx).catch(duplicate));
    },

    async update(env: EnvironmentRow, id: string, patch: Patch<Row>, trx: Transaction): Promise<View> {
      return serialize(found(await table.update(env.organization_id, env.id, id, patch, trx).catch(duplicate), what));
    },
  };
}
