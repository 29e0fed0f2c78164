/**
 * One environment's warm pool: keeps `target_size` ready workspaces of the current generation,
 * one build at a time, backing off after failures (the activity records them on the config),
 * and drains the pool when it is disabled. Everything it decides comes from the database
 * (`planWarmPool`), so a signal only says "look again".
 */
import { condition, continueAsNew, defineSignal, setHandler, workflowInfo } from '@temporalio/workflow';
import { builds, records } from './activities';
import { WARM_POOL_SIGNALS, type WarmPoolInput } from './shared';

export const warmPoolChanged = defineSignal(WARM_POOL_SIGNALS.changed);

export async function warmPoolWorkflow(input: WarmPoolInput): Promise<void> {
  let changed = false;
  setHandler(warmPoolChanged, () => void (changed = true));

  for (;;) {
    changed = false;
    const plan = await records.planWarmPool({ configId: input.configId });
    if (!plan.enabled) {
      await records.drainWarmPool({ configId: input.configId, staleOnly: false });
      // Re-enabled while draining: keep going; otherwise this pool's workflow ends.
      if (!changed) return;
      continue;
    }
    if (plan.staleToRemove) await records.drainWarmPool({ configId: input.configId, staleOnly: true });
    if (plan.retryInMs > 0) {
      await condition(() => changed, plan.retryInMs);
      continue;
    }
    if (plan.needed > 0) {
      await builds.buildWarmPoolEntry({ configId: input.configId });
      continue;
    }
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 2000) {
      await continueAsNew<typeof warmPoolWorkflow>(input);
    }
    await condition(() => changed);
  }
}
