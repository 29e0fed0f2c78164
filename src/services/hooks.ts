/**
 * Warm and start hooks: versioned per environment (a save deactivates the previous version),
 * tested in a sandbox through a Temporal workflow, and the warm-pool switch.
 */
import { randomUUID } from 'node:crypto';
import type { HookKind, HookTestResult } from '../../workflows/shared';
import type { Repositories } from '../db';
import type { HookRow } from '../db/hooksRepository';
import type { WarmPoolRow, WarmPoolStats, WarmPoolWorkspaceRow } from '../db/warmPoolsRepository';
import { notFound } from '../domain/errors';
import type { WorkflowControl } from '../temporal/workflowControl';
import { accessThroughEnvironment, type EnvironmentsService } from './environments';
import type { Actor } from '../domain/actor';

export type { HookRow, WarmPoolRow, WarmPoolStats, WarmPoolWorkspaceRow };

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

export function createHooksService(deps: {
  repos: Pick<Repositories, 'transact' | 'hooks' | 'warmPools'>;
  environments: Pick<EnvironmentsService, 'access'>;
  temporal: Pick<WorkflowControl, 'warmPoolChanged' | 'runHookTest'>;
  warmPoolSize?: number;
}) {
  const { repos, environments, temporal } = deps;
  const { hooks, warmPools } = repos;
  const targetSize = deps.warmPoolSize ?? WARM_POOL_TARGET_SIZE;

  const withStats = async (row: WarmPoolRow | null): Promise<(WarmPoolRow & WarmPoolStats) | null> => row && { ...row, ...(await warmPools.stats(row)) };

  const poolInput = (row: WarmPoolRow) => ({ configId: row.id, environmentId: row.environment_id, organizationId: row.organization_id });

  return {
    async get(actor: Actor, environmentId: string, kind: HookKind): Promise<HookRow | null> {
      const env = await environments.access(actor, environmentId);
      return hooks.active(env.id, kind);
    },

    async warmState(actor: Actor, environmentId: string): Promise<{ hook: HookRow | null; pool: (WarmPoolRow & WarmPoolStats) | null }> {
      const env = await environments.access(actor, environmentId);
      const pool = await warmPools.findForEnvironment(env.id);
      return { hook: await hooks.active(env.id, 'warm'), pool: await withStats(pool) };
    },

    /** Empty content clears the hook (no active version) and answers null. */
    async save(actor: Actor, environmentId: string, kind: HookKind, content: string): Promise<HookRow | null> {
      const row = await repos.transact(async (trx) => {
        const env = await environments.access(actor, environmentId, trx);
        return hooks.saveVersion(env, kind, content.trim() === '' ? null : content, trx);
      });
      // A new warm hook invalidates the pool: older entries become stale (still claimable)
      // and are replaced in the background. Start hooks run at claim and change nothing.
      if (kind !== 'warm') return row;
      const env = await environments.access(actor, environmentId);
      const pool = await warmPools.nextGeneration(env.id);
      if (pool?.enabled) await temporal.warmPoolChanged(poolInput(pool), false).catch(() => false);
      return row;
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
      const row = await warmPools.setEnabled({ id: randomUUID(), organizationId: env.organization_id, environmentId: env.id, enabled, targetSize });
      // Enabling starts the pool's workflow (or wakes it); disabling asks it to drain.
      await temporal.warmPoolChanged(poolInput(row), enabled);
      return (await withStats(row))!;
    },

    /** Up to 10 recent entries of a pool of the caller's organization (interop §2.12). */
    async poolWorkspaces(actor: Actor, configId: string): Promise<WarmPoolWorkspaceRow[]> {
      const pool = await warmPools.findInOrganization(actor.organizationId, configId);
      if (!pool) throw notFound('Warm pool');
      await accessThroughEnvironment(environments, actor, pool.environment_id, () => notFound('Warm pool'));
      return warmPools.recentEntries(configId);
    },
  };
}

export type HooksService = ReturnType<typeof createHooksService>;
