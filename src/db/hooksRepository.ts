/**
 * `environment_hooks`: an environment's warm and start hooks, versioned. One version of each
 * kind is active; saving a new one deactivates the previous.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export type HookKind = 'warm' | 'start';

export interface HookRow {
  id: string;
  organization_id: string;
  environment_id: string;
  kind: HookKind;
  version: number;
  content: string;
  is_active: boolean;
  created_at: Date;
}

export function createHooksRepository(db: Knex) {
  return {
    async active(environmentId: string, kind: HookKind, trx: Knex = db): Promise<HookRow | null> {
      return (await trx('environment_hooks').where({ environment_id: environmentId, kind, is_active: true }).first()) ?? null;
    },

    /** The active hook of each of these environments that has one. */
    async activeOf(environmentIds: string[], kind: HookKind, trx: Knex = db): Promise<HookRow[]> {
      if (environmentIds.length === 0) return [];
      return trx('environment_hooks').whereIn('environment_id', environmentIds).where({ kind, is_active: true });
    },

    /**
     * Deactivates the environment's active hook of this kind and, unless `content` is null,
     * stores it as the next version. Saves of one environment go one at a time (its row is
     * locked), so versions never collide.
     */
    async saveVersion(env: { id: string; organization_id: string }, kind: HookKind, content: string | null, trx: Knex.Transaction): Promise<HookRow | null> {
      await trx('environments').where({ id: env.id }).forUpdate().first();
      await trx('environment_hooks').where({ environment_id: env.id, kind, is_active: true }).update({ is_active: false });
      if (content === null) return null;
      const { max } = (await trx('environment_hooks').where({ environment_id: env.id, kind }).max({ max: 'version' }).first()) ?? {};
      const [row] = await trx('environment_hooks')
        .insert({ id: randomUUID(), organization_id: env.organization_id, environment_id: env.id, kind, version: Number(max ?? 0) + 1, content, is_active: true })
        .returning('*');
      return row as HookRow;
    },
  };
}

export type HooksRepository = ReturnType<typeof createHooksRepository>;
