/**
 * Warm and start hooks: versioned per environment (a save deactivates the previous version),
 * tested in a sandbox through a Temporal workflow, and the warm-pool switch.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { HookKind, HookTestResult } from '../../workflows/shared';
import type { TemporalGateway } from '../temporal/gateway';
import type { EnvironmentsService } from './environments';
import type { Actor } from './identity';

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

/** Pool counts come from the workspace pool (workspaces issue); until it runs they are zero. */
export const serializeWarmPool = (row: WarmPoolRow | null) =>
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
    ready_count: 0,
    stale_count: 0,
    warming_count: 0,
    snapshotting_count: 0,
    last_failure_at: row.last_error_at?.toISOString() ?? null,
    last_failure_reason: row.last_error_message,
  };

export function createHooksService(deps: { db: Knex; environments: EnvironmentsService; temporal: TemporalGateway }) {
  const { db, environments, temporal } = deps;

  async function active(environmentId: string, kind: HookKind, trx: Knex = db): Promise<HookRow | null> {
    return (await trx('environment_hooks').where({ environment_id: environmentId, kind, is_active: true }).first()) ?? null;
  }

  return {
    async get(actor: Actor, environmentId: string, kind: HookKind): Promise<HookRow | null> {
      const env = await environments.access(actor, environmentId);
      return active(env.id, kind);
    },

    async warmState(actor: Actor, environmentId: string): Promise<{ hook: HookRow | null; pool: WarmPoolRow | null }> {
      const env = await environments.access(actor, environmentId);
      const pool = (await db('warm_pool_configs').where({ environment_id: env.id }).first()) ?? null;
      return { hook: await active(env.id, 'warm'), pool };
    },

    /** Empty content clears the hook (no active version) and answers null. */
    async save(actor: Actor, environmentId: string, kind: HookKind, content: string): Promise<HookRow | null> {
      return db.transaction(async (trx) => {
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
      });
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

    async setWarmPool(actor: Actor, environmentId: string, enabled: boolean): Promise<WarmPoolRow> {
      const env = await environments.access(actor, environmentId);
      const [row] = await db('warm_pool_configs')
        .insert({
          id: randomUUID(),
          organization_id: env.organization_id,
          environment_id: env.id,
          enabled,
          target_size: WARM_POOL_TARGET_SIZE,
        })
        .onConflict('environment_id')
        .merge({ enabled, updated_at: db.fn.now() })
        .returning('*');
      return row as WarmPoolRow;
    },
  };
}

export type HooksService = ReturnType<typeof createHooksService>;
