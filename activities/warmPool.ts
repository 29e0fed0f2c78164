/**
 * Warm pools: build one ready workspace of an environment (container, files, repositories,
 * warm hooks), plan what a pool needs, drain it. An entry's container is named after the
 * entry (`hangar-ws-<entryId>`); a replica that claims it (activities/workspace.ts) records
 * that name in `replicas.workspace_key`.
 */
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { HOOK_LOG_PREVIEW, heartbeating, type WorkspaceActivityDeps } from './workspace';
import { environmentRepositories, environmentSetup, PROFILE_HOOK_SCRIPT, type WarmHookLog } from './workspaceSetup';

/** Backoff after consecutive failed builds: 5 s, 10 s, 20 s … at most 10 min. */
export const WARM_POOL_BACKOFF_BASE_MS = 5000;
export const WARM_POOL_BACKOFF_MAX_MS = 10 * 60_000;
export const warmPoolBackoffMs = (errorCount: number) => Math.min(WARM_POOL_BACKOFF_MAX_MS, WARM_POOL_BACKOFF_BASE_MS * 2 ** Math.max(0, errorCount - 1));

export const WARM_POOL_LABEL = 'dev.hangar.warm-pool';

export function createWarmPoolActivities(deps: WorkspaceActivityDeps) {
  const { db, runtime } = deps;

  /** Marks entries expired (or failed) and removes their containers. */
  async function retire(ids: string[], status: 'expired' | 'failed', error?: string) {
    if (!ids.length) return;
    await db('warm_pool_workspaces')
      .whereIn('id', ids)
      .update({ status, updated_at: db.fn.now(), ...(error ? { error_message: error.slice(0, 2000) } : {}) });
    for (const id of ids) await runtime.remove(id).catch((err) => deps.logger.warn('removing a warm workspace failed', { entryId: id, err }));
  }

  return {
    async planWarmPool({ configId }: { configId: string }): Promise<{ enabled: boolean; needed: number; retryInMs: number; staleToRemove: boolean }> {
      const config = await db('warm_pool_configs').where({ id: configId }).first();
      if (!config?.enabled) return { enabled: false, needed: 0, retryInMs: 0, staleToRemove: false };
      // Ready entries built from an environment that has since changed can never be claimed.
      const env = await db('environments').where({ id: config.environment_id }).first();
      const setup = await environmentSetup(deps, config.organization_id, env.id);
      const outdated = await db('warm_pool_workspaces').where({ warm_pool_config_id: configId, status: 'ready' }).whereNot({ env_hash: setup.hash }).pluck('id');
      await retire(outdated, 'expired');
      const counts = await db('warm_pool_workspaces')
        .where({ warm_pool_config_id: configId, status: 'ready', generation: config.generation })
        .count({ n: '*' })
        .first();
      const current = Number(counts?.n ?? 0);
      const stale = await db('warm_pool_workspaces').where({ warm_pool_config_id: configId, status: 'ready' }).where('generation', '<', config.generation).count({ n: '*' }).first();
      const retryInMs = config.next_retry_at ? Math.max(0, new Date(config.next_retry_at).getTime() - Date.now()) : 0;
      return {
        enabled: true,
        needed: Math.max(0, config.target_size - current),
        retryInMs,
        // Stale entries stay claimable as a fallback until the current generation is full.
        staleToRemove: current >= config.target_size && Number(stale?.n ?? 0) > 0,
      };
    },

    async drainWarmPool({ configId, staleOnly }: { configId: string; staleOnly: boolean }) {
      const config = await db('warm_pool_configs').where({ id: configId }).first();
      if (!config) return;
      const ids: string[] = await db('warm_pool_workspaces')
        .where({ warm_pool_config_id: configId })
        .whereIn('status', staleOnly ? ['ready'] : ['ready', 'warming'])
        .modify((q) => {
          if (staleOnly) q.where('generation', '<', config.generation);
        })
        .pluck('id');
      await retire(ids, 'expired');
    },

    async buildWarmPoolEntry({ configId }: { configId: string }): Promise<{ ok: boolean; entryId?: string; error?: string }> {
      const config = await db('warm_pool_configs').where({ id: configId }).first();
      if (!config?.enabled) return { ok: false, error: 'the pool is disabled' };
      // Builds of one pool run one at a time: a `warming` entry now is left by a dead worker.
      await retire(await db('warm_pool_workspaces').where({ warm_pool_config_id: configId, status: 'warming' }).pluck('id'), 'failed', 'the build was interrupted');

      const entryId = randomUUID();
      const startedAt = Date.now();
      const env = await db('environments').where({ id: config.environment_id }).first();
      const ctx = Context.current();
      try {
        const setup = await environmentSetup(deps, config.organization_id, env.id);
        const repositories = await environmentRepositories(db, env);
        await db('warm_pool_workspaces').insert({
          id: entryId,
          organization_id: config.organization_id,
          warm_pool_config_id: configId,
          environment_id: env.id,
          status: 'warming',
          generation: config.generation,
          size: 'small',
          repositories: JSON.stringify(repositories),
          env_hash: setup.hash,
        });
        const logs = await heartbeating(async () => {
          const check = () => {
            if (ctx.cancellationSignal.aborted) throw new Error('the build was cancelled');
          };
          await runtime.ensure({
            replicaId: entryId,
            size: 'small',
            env: setup.env,
            labels: { 'dev.hangar.organization': config.organization_id, [WARM_POOL_LABEL]: configId },
          });
          check();
          await runtime.writeFiles(entryId, setup.files);
          await runtime.exec(entryId, { argv: ['bash', '-c', PROFILE_HOOK_SCRIPT] });
          for (const repo of repositories) {
            check();
            await runtime.checkout(entryId, { name: repo.name, url: repo.url, branch: repo.default_branch });
          }
          // Warm hooks: Global's (and a source environment's), then the environment's own. A
          // failing hook is logged, as at start; it does not fail the workspace.
          const own = await db('environment_hooks').where({ environment_id: env.id, kind: 'warm', is_active: true }).first();
          const hooks = [
            ...(await deps.resolution.inheritedHooks(setup.resolved, 'warm')).map((h) => ({ layer: h.layer, script: h.content })),
            ...(own ? [{ layer: env.is_global ? 'global' : 'environment', script: own.content as string }] : []),
          ];
          const out: WarmHookLog[] = [];
          for (const hook of hooks) {
            check();
            const result = await runtime.runHook(entryId, { name: `${hook.layer}-warm`, script: hook.script, timeoutMs: deps.hookTimeoutMs });
            out.push({
              hook_type: hook.layer === 'global' ? 'global' : 'repository',
              hook_name: hook.layer === 'global' ? 'global' : env.name,
              script: hook.script,
              output: result.output.slice(0, HOOK_LOG_PREVIEW),
              output_total_chars: result.outputTotalChars,
              exit_code: result.exitCode,
              timed_out: result.timedOut,
              executed_at: new Date().toISOString(),
            });
          }
          return out;
        });
        const updated = await db('warm_pool_workspaces')
          .where({ id: entryId, status: 'warming' })
          .update({ status: 'ready', hook_logs: JSON.stringify(logs), updated_at: db.fn.now() });
        if (!updated) {
          // Drained while it was being built.
          await runtime.remove(entryId);
          return { ok: false, entryId, error: 'the pool was drained during the build' };
        }
        await db('warm_pool_configs').where({ id: configId }).update({ error_count: 0, next_retry_at: null });
        deps.logger.info('warm workspace ready', { configId, entryId, durationMs: Date.now() - startedAt });
        return { ok: true, entryId };
      } catch (err) {
        const message = (err as Error).message.slice(0, 2000);
        deps.logger.warn('warm workspace build failed', { configId, entryId, err: err as Error });
        const exists = await db('warm_pool_workspaces').where({ id: entryId }).first();
        if (exists) await retire([entryId], 'failed', message);
        else await runtime.remove(entryId).catch(() => undefined);
        const errorCount = Number(config.error_count) + 1;
        await db('warm_pool_configs')
          .where({ id: configId })
          .update({
            error_count: errorCount,
            next_retry_at: new Date(Date.now() + warmPoolBackoffMs(errorCount)),
            last_error_at: db.fn.now(),
            last_error_message: message,
          });
        return { ok: false, entryId, error: message };
      }
    },
  };
}

export type WarmPoolActivities = ReturnType<typeof createWarmPoolActivities>;
