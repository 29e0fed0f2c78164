/**
 * One environment's warm pool: keeps `target_size` ready workspaces of the current generation,
 * one build at a time, backing off after failures (the activity records them on the config),
 * and drains the pool when it is disabled. Everything it decides comes from the database
 * (`planWarmPool`), so a signal only says "look again".
 */
import { condition, continueAsNew, defineSignal, log, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import { builds, onHost, placements, records } from './activities';
import { failureMessage } from './failures';
import { WARM_POOL_SIGNALS, type WarmPoolInput } from './shared';
import type { WarmPoolRemoval } from '../activities/warmPool';

export const warmPoolChanged = defineSignal(WARM_POOL_SIGNALS.changed);

export async function warmPoolWorkflow(input: WarmPoolInput): Promise<void> {
  let changed = false;
  setHandler(warmPoolChanged, () => void (changed = true));

  // Containers of entries retired on another worker host are removed by that host's worker; a
  // host that is not running keeps them until it is (its worker sweeps them at start).
  const removeElsewhere = async (outcome: { removals?: WarmPoolRemoval[] } | void) => {
    if (!outcome?.removals?.length || !patched('warm-pool-removals-per-host')) return;
    for (const { hostId, entryIds } of outcome.removals) {
      const host = await placements.hostOf({ hostId }).catch(() => null);
      if (!host) continue;
      await onHost(host).builds.removeWarmPoolContainers({ entryIds }).catch((err: unknown) => {
        log.warn('warm-pool containers were not removed on their host', { hostId, error: failureMessage(err) });
      });
    }
  };

  for (;;) {
    changed = false;
    const plan = await records.planWarmPool({ configId: input.configId });
    await removeElsewhere(plan);
    if (!plan.enabled) {
      await removeElsewhere(await records.drainWarmPool({ configId: input.configId, staleOnly: false }));
      // Re-enabled while draining: keep going; otherwise this pool's workflow ends.
      if (!changed) return;
      continue;
    }
    if (plan.staleToRemove) await removeElsewhere(await records.drainWarmPool({ configId: input.configId, staleOnly: true }));
    if (plan.retryInMs > 0) {
      await condition(() => changed, plan.retryInMs);
      continue;
    }
    if (plan.needed > 0) {
      // Each entry is built on a worker host chosen for it (the build records its host, where a
      // claim finds it). With no host free, the build waits for the next look.
      if (patched('worker-hosts')) {
        const host = await placements.placeWarmPoolEntry({ configId: input.configId }).catch((err: unknown) => {
          log.warn('no worker host for a warm-pool entry', { error: failureMessage(err) });
          return null;
        });
        if (!host) {
          await condition(() => changed, '1 minute');
          continue;
        }
        const built = await onHost(host).builds.buildWarmPoolEntry({ configId: input.configId }).catch((err: unknown) => {
          // The host was lost before it picked the build up: the next look places it elsewhere.
          log.warn('a warm-pool build was not picked up', { hostId: host.hostId, error: failureMessage(err) });
        });
        await removeElsewhere(built);
        continue;
      }
      await builds.buildWarmPoolEntry({ configId: input.configId });
      continue;
    }
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 2000) {
      await continueAsNew<typeof warmPoolWorkflow>(input);
    }
    await condition(() => changed);
  }
}
