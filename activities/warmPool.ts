/**
 * Warm pools: build one ready workspace of an environment (container, files, skills,
 * repositories, warm hooks), plan what a pool needs, drain it. An entry's container is named
 * after the entry (`hangar-ws-<entryId>`); a replica that claims it (activities/workspace.ts)
 * records that name in `replicas.workspace_key`.
 */
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { snapshotRepositories } from '../src/domain/replicas';
import { environmentSetup, hookChain, PROFILE_HOOK_SCRIPT, type WarmHookLog } from '../src/worker/environmentSetup';
import { fetchSkills, withRegistrySkills } from '../src/worker/skills';
import type { EventBus } from '../src/events/bus';
import { announceWarmWorkspaceStatus, createWarmWorkspacePublisher } from '../src/events/warmPoolStream';
import { HOOK_LOG_PREVIEW, heartbeating, type WorkspaceActivityDeps } from './workspace';
import { HOST_LABEL } from './hosts';

/** Backoff after consecutive failed builds: 5 s, 10 s, 20 s … at most 10 min. */
export const WARM_POOL_BACKOFF_BASE_MS = 5000;
export const WARM_POOL_BACKOFF_MAX_MS = 10 * 60_000;
export const warmPoolBackoffMs = (errorCount: number) => Math.min(WARM_POOL_BACKOFF_MAX_MS, WARM_POOL_BACKOFF_BASE_MS * 2 ** Math.max(0, errorCount - 1));

export const WARM_POOL_LABEL = 'dev.hangar.warm-pool';

/** Containers of retired entries on another worker host, removed there by the pool's workflow. */
export interface WarmPoolRemoval {
  hostId: string;
  entryIds: string[];
}

export function createWarmPoolActivities(deps: WorkspaceActivityDeps & { bus: EventBus; hostTimeoutMs: number }) {
  const { repos, runtime } = deps;
  const { warmPools } = repos;
  const publishFailed = (err: unknown) => deps.logger.warn('warm workspace stream publish failed', { err });

  /**
   * Marks entries expired (or failed) and removes their containers: here when they are on this
   * worker's host (or recorded before hosts were), else they are returned by host, for the
   * workflow to remove on their own host's queue.
   */
  async function retire(ids: string[], status: 'expired' | 'failed', error?: string): Promise<WarmPoolRemoval[]> {
    if (!ids.length) return [];
    await warmPools.retire(ids, status, error?.slice(0, 2000));
    await announceWarmWorkspaceStatus(deps.bus, ids, status, publishFailed);
    const hosts = await warmPools.hostsOf(ids);
    const elsewhere = new Map<string, string[]>();
    for (const id of ids) {
      const host = hosts.get(id) ?? null;
      if (host && deps.hostId && host !== deps.hostId) elsewhere.set(host, [...(elsewhere.get(host) ?? []), id]);
      else await removeHere([id]);
    }
    return [...elsewhere].map(([hostId, entryIds]) => ({ hostId, entryIds }));
  }

  async function removeHere(ids: string[]) {
    for (const id of ids) await runtime.remove(id).catch((err) => deps.logger.warn('removing a warm workspace failed', { entryId: id, err }));
  }

  return {
    async planWarmPool({ configId }: { configId: string }): Promise<{ enabled: boolean; needed: number; retryInMs: number; staleToRemove: boolean; removals?: WarmPoolRemoval[] }> {
      const config = await warmPools.find(configId);
      if (!config?.enabled) return { enabled: false, needed: 0, retryInMs: 0, staleToRemove: false };
      // Ready entries built from an environment that has since changed can never be claimed,
      // nor can those of a host that has gone (not seen within the host timeout).
      const setup = await environmentSetup(deps, config.organization_id, config.environment_id);
      const removals = [
        ...(await retire(await warmPools.entryIds(configId, { statuses: ['ready'], otherThanHash: setup.hash }), 'expired')),
        ...(await retire(await warmPools.entryIdsOnSilentHosts(configId, deps.hostTimeoutMs), 'expired', 'its worker host is gone')),
      ];
      // Only entries a claim can reach count toward the target: while a host is stopped, the
      // pool builds on the others; when it comes back, the oldest entries above the target go.
      const current = await warmPools.countReady(configId, { current: config.generation, liveWithinMs: deps.hostTimeoutMs });
      if (current > config.target_size) removals.push(...(await retire(await warmPools.excessReady(configId, config.generation, config.target_size), 'expired')));
      const stale = await warmPools.countReady(configId, { below: config.generation });
      const retryInMs = config.next_retry_at ? Math.max(0, new Date(config.next_retry_at).getTime() - Date.now()) : 0;
      return {
        enabled: true,
        needed: Math.max(0, config.target_size - current),
        retryInMs,
        // Stale entries stay claimable as a fallback until the current generation is full.
        staleToRemove: current >= config.target_size && stale > 0,
        ...(removals.length ? { removals } : {}),
      };
    },

    /** On the entries' own host: removes the containers of entries retired elsewhere. */
    async removeWarmPoolContainers({ entryIds }: { entryIds: string[] }): Promise<void> {
      await removeHere(await warmPools.retiredAmong(entryIds));
    },

    async drainWarmPool({ configId, staleOnly }: { configId: string; staleOnly: boolean }): Promise<{ removals: WarmPoolRemoval[] }> {
      const config = await warmPools.find(configId);
      if (!config) return { removals: [] };
      const ids = await warmPools.entryIds(configId, staleOnly ? { statuses: ['ready'], belowGeneration: config.generation } : { statuses: ['ready', 'warming'] });
      return { removals: await retire(ids, 'expired') };
    },

    async buildWarmPoolEntry({ configId }: { configId: string }): Promise<{ ok: boolean; entryId?: string; error?: string; removals?: WarmPoolRemoval[] }> {
      const config = await warmPools.find(configId);
      if (!config?.enabled) return { ok: false, error: 'the pool is disabled' };
      // Builds of one pool run one at a time: a `warming` entry now is left by a dead worker.
      const interrupted = await retire(await warmPools.entryIds(configId, { statuses: ['warming'] }), 'failed', 'the build was interrupted');
      const removals = interrupted.length ? { removals: interrupted } : {};

      const entryId = randomUUID();
      const startedAt = Date.now();
      const ctx = Context.current();
      // Followers of the entry's stream see its warm hooks' output live, then its end.
      const stream = createWarmWorkspacePublisher(deps.bus, entryId, publishFailed);
      try {
        const setup = await environmentSetup(deps, config.organization_id, config.environment_id);
        const env = setup.resolved.environment;
        const repositories = snapshotRepositories(await repos.codeRepositories.boundTo(config.organization_id, env));
        await warmPools.insertEntry({
          id: entryId,
          organization_id: config.organization_id,
          warm_pool_config_id: configId,
          environment_id: env.id,
          generation: config.generation,
          size: 'small',
          repositories,
          env_hash: setup.hash,
          ...(deps.hostId ? { host_id: deps.hostId } : {}),
        });
        const built = await heartbeating(async () => {
          const check = () => {
            if (ctx.cancellationSignal.aborted) throw new Error('the build was cancelled');
          };
          const [skills] = await Promise.all([
            withRegistrySkills(deps, setup.skills, setup.registries).then((skills) => fetchSkills(deps, skills)),
            runtime.ensure({
              replicaId: entryId,
              size: 'small',
              env: setup.env,
              labels: { 'dev.hangar.organization': config.organization_id, [WARM_POOL_LABEL]: configId, ...(deps.hostId ? { [HOST_LABEL]: deps.hostId } : {}) },
              organizationId: config.organization_id,
            }),
          ]);
          check();
          await runtime.writeFiles(entryId, [...skills.files, ...setup.files]);
          await runtime.exec(entryId, { argv: ['bash', '-c', PROFILE_HOOK_SCRIPT] });
          for (const repo of repositories) {
            check();
            await runtime.checkout(entryId, { name: repo.name, url: repo.url, branch: repo.default_branch });
          }
          // Warm hooks: Global's (and a source environment's), then the environment's own. A
          // failing hook is logged, as at start; it does not fail the workspace.
          const hooks = await hookChain(repos, setup.resolved, 'warm');
          const out: WarmHookLog[] = [];
          for (const hook of hooks) {
            check();
            const result = await runtime.runHook(entryId, { name: `${hook.layer}-warm`, script: hook.script, timeoutMs: deps.hookTimeoutMs, onOutput: stream.output });
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
          return { hookLogs: out, skillsInstalled: skills.installed };
        });
        // The row turns ready only once its followers have been sent every line of output.
        if (!(await stream.finish('ready', () => warmPools.markReady(entryId, built)))) {
          // Drained while it was being built (the drain announced it).
          await runtime.remove(entryId);
          return { ok: false, entryId, error: 'the pool was drained during the build', ...removals };
        }
        await warmPools.recordSuccess(configId);
        deps.logger.info('warm workspace ready', { configId, entryId, durationMs: Date.now() - startedAt });
        return { ok: true, entryId, ...removals };
      } catch (err) {
        const message = (err as Error).message.slice(0, 2000);
        deps.logger.warn('warm workspace build failed', { configId, entryId, err: err as Error });
        if (await warmPools.findEntry(entryId)) await retire([entryId], 'failed', message);
        else await runtime.remove(entryId).catch(() => undefined);
        const errorCount = Number(config.error_count) + 1;
        await warmPools.recordFailure(configId, { errorCount, nextRetryAt: new Date(Date.now() + warmPoolBackoffMs(errorCount)), message });
        return { ok: false, entryId, error: message, ...removals };
      }
    },
  };
}

export type WarmPoolActivities = ReturnType<typeof createWarmPoolActivities>;
