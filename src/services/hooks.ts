/**
 * Warm and start hooks: versioned per environment (a save deactivates the previous version),
 * tested in a sandbox through a Temporal workflow, and the warm-pool switch.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { HookKind, HookTestResult } from '../../workflows/shared';
import { notFound } from '../domain/errors';
import type { TemporalGateway } from '../temporal/gateway';
import type { EnvironmentsService } from './environments';
import type { Actor } from '../domain/actor';

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

export interface WarmPoolRow {
  id: string;
  organization_id: string;
  environment_id: string;
  enabled: boolean;
  target_size: number;
  generation: number;
  error_count: number;
  next_retry_at: Date | null;
  last_error_at: Date | null;
  last_error_message: string | null;
  updated_at: Date;
}

/** Counts of a pool's entries, from warm_pool_workspaces. */
export interface WarmPoolStats {
  ready_count: number;
  stale_count: number;
  warming_count: number;
}

export interface WarmPoolWorkspaceRow {
  id: string;
  organization_id: string;
  warm_pool_config_id: string;
  status: string;
  generation: number;
  error_message: string | null;
  created_at: Date;
}

export const HOOK_MAX_CHARS = 65_536;
export const WARM_POOL_TARGET_SIZE = 5;

export const serializeHook = (row: HookRow | null) =>
  row && {
    id: row.id,
    organization_id: row.organization_id,
    environment_id: row.environment_id,
    version: row.version,
    content: row.content,
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
  };

/** `ready_count` is the current generation's ready entries, `stale_count` older ones. */
export const serializeWarmPool = (row: (WarmPoolRow & Partial<WarmPoolStats>) | null) =>
  row && {
    id: row.id,
    organization_id: row.organization_id,
    environment_id: row.environment_id,
    enabled: row.enabled,
    target_size: row.target_size,
    generation: row.generation,
    error_count: row.error_count,
    next_retry_at: row.next_retry_at?.toISOString() ?? null,
    last_error_at: row.last_error_at?.toISOString() ?? null,
    last_error_message: row.last_error_message,
    has_base_snapshot: false,
    updated_at: row.updated_at.toISOString(),
    ready_count: row.ready_count ?? 0,
    stale_count: row.stale_count ?? 0,
    warming_count: row.warming_count ?? 0,
    snapshotting_count: 0,
    last_failure_at: row.last_error_at?.toISOString() ?? null,
    last_failure_reason: row.last_error_message,
  };

/** interop §2.12; `sandbox_id` is the entry's container name. */
export const serializeWarmPoolWorkspace = (row: WarmPoolWorkspaceRow) => ({
  id: row.id,
  organization_id: row.organization_id,
  warm_pool_config_id: row.warm_pool_config_id,
  sandbox_id: `hangar-ws-${row.id}`,
  status: row.status,
  generation: row.generation,
  error_message: row.error_message,
  created_at: row.created_at.toISOString(),
});

export function createHooksService(deps: { db: Knex; environments: EnvironmentsService; temporal: TemporalGateway; warmPoolSize?: number }) {
  const { db, environments, temporal } = deps;
  const targetSize = deps.warmPoolSize ?? WARM_POOL_TARGET_SIZE;

  async function withStats(row: WarmPoolRow | null): Promise<(WarmPoolRow & WarmPoolStats) | null> {
    if (!row) return null;
    const rows: Array<{ status: string; current: boolean; n: string | number }> = await db('warm_pool_workspaces')
      .where({ warm_pool_config_id: row.id })
      .whereIn('status', ['ready', 'warming'])
      .select('status', db.raw('generation = ? as current', [row.generation]))
      .count({ n: '*' })
      .groupBy('status', 'current');
    const count = (status: string, current?: boolean) =>
      rows.filter((r) => r.status === status && (current === undefined || r.current === current)).reduce((sum, r) => sum + Number(r.n), 0);
    return { ...row, ready_count: count('ready', true), stale_count: count('ready', false), warming_count: count('warming') };
  }

  const poolInput = (row: WarmPoolRow) => ({ configId: row.id, environmentId: row.environment_id, organizationId: row.organization_id });

  async function active(environmentId: string, kind: HookKind, trx: Knex = db): Promise<HookRow | null> {
    return (await trx('environment_hooks').where({ environment_id: environmentId, kind, is_active: true }).first()) ?? null;
  }

  return {
    async get(actor: Actor, environmentId: string, kind: HookKind): Promise<HookRow | null> {
      const env = await environments.access(actor, environmentId);
      return active(env.id, kind);
    },

    async warmState(actor: Actor, environmentId: string): Promise<{ hook: HookRow | null; pool: (WarmPoolRow & WarmPoolStats) | null }> {
      const env = await environments.access(actor, environmentId);
      const pool = (await db('warm_pool_configs').where({ environment_id: env.id }).first()) ?? null;
      return { hook: await active(env.id, 'warm'), pool: await withStats(pool) };
    },

    /** Empty content clears the hook (no active version) and answers null. */
    async save(actor: Actor, environmentId: string, kind: HookKind, content: string): Promise<HookRow | null> {
      const saved = await db.transaction(async (trx) => {
        const env = await environments.access(actor, environmentId, trx);
        await trx('environments').where({ id: env.id }).forUpdate().first();
        await trx('environment_hooks').where({ environment_id: env.id, kind, is_active: true }).update({ is_active: false });
        if (content.trim() === '') return null;
        const { max } = (await trx('environment_hooks').where({ environment_id: env.id, kind }).max({ max: 'version' }).first()) ?? {};
        const [row] = await trx('environment_hooks')
          .insert({
            id: randomUUID(),
            organization_id: env.organization_id,
            environment_id: env.id,
            kind,
            version: Number(max ?? 0) + 1,
            content,
            is_active: true,
          })
          .returning('*');
        return row as HookRow;
      }).then(async (row) => {
        // A new warm hook invalidates the pool: older entries become stale (still claimable)
        // and are replaced in the background. Start hooks run at claim and change nothing.
        if (kind !== 'warm') return row;
        const env = await environments.access(actor, environmentId);
        const [pool] = await db('warm_pool_configs')
          .where({ environment_id: env.id })
          .update({ generation: db.raw('generation + 1'), updated_at: db.fn.now() })
          .returning('*');
        if (pool?.enabled) await temporal.warmPoolChanged(poolInput(pool as WarmPoolRow), false).catch(() => false);
        return row;
      });
      return saved;
    },

    async test(
      actor: Actor,
      environmentId: string,
      kind: HookKind,
      content: string,
      options: { signal?: AbortSignal; streamChannel?: string; testId?: string } = {},
    ): Promise<HookTestResult> {
      const env = await environments.access(actor, environmentId);
      return temporal.runHookTest(
        { organizationId: env.organization_id, environmentId: env.id, kind, content, streamChannel: options.streamChannel, testId: options.testId },
        options.signal,
      );
    },

    async setWarmPool(actor: Actor, environmentId: string, enabled: boolean): Promise<WarmPoolRow & WarmPoolStats> {
      const env = await environments.access(actor, environmentId);
      const [row] = await db('warm_pool_configs')
        .insert({
          id: randomUUID(),
          organization_id: env.organization_id,
          environment_id: env.id,
          enabled,
          target_size: targetSize,
        })
        .onConflict('environment_id')
        .merge({ enabled, target_size: targetSize, updated_at: db.fn.now(), ...(enabled ? { error_count: 0, next_retry_at: null } : {}) })
        .returning('*');
      // Enabling starts the pool's workflow (or wakes it); disabling asks it to drain.
      await temporal.warmPoolChanged(poolInput(row as WarmPoolRow), enabled);
      return (await withStats(row as WarmPoolRow))!;
    },

    /** Up to 10 recent entries of a pool of the caller's organization (interop §2.12). */
    async poolWorkspaces(actor: Actor, configId: string): Promise<WarmPoolWorkspaceRow[]> {
      const pool = await db('warm_pool_configs').where({ id: configId, organization_id: actor.organizationId }).first();
      if (!pool) throw notFound('Warm pool');
      await environments.access(actor, pool.environment_id);
      return db('warm_pool_workspaces').where({ warm_pool_config_id: configId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).limit(10);
    },
  };
}

export type HooksService = ReturnType<typeof createHooksService>;
