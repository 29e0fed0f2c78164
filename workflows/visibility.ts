/**
 * What a workflow passes on to the workflows it starts, so that a run's workspace is found by
 * its automation and organization like the run itself. Continue-as-new needs nothing: the
 * server carries the search attributes and the memo over to the new run.
 */
import type { SearchAttributePair } from '@temporalio/common';
import { workflowInfo } from '@temporalio/workflow';
import { labelsOf, searchAttributePairs, type WorkflowLabels } from './shared';

/**
 * This workflow's own labels with `labels` on top, and its memo. Nothing when it carries no
 * organization: the deployment runs without search attributes (they may not be registered, and
 * a start with an unregistered one fails), or it was started before Hangar set them.
 */
export function childVisibility(labels: WorkflowLabels): { typedSearchAttributes?: SearchAttributePair[]; memo?: Record<string, unknown> } {
  const info = workflowInfo();
  const own = labelsOf(info.typedSearchAttributes);
  if (!own.organizationId) return {};
  return { typedSearchAttributes: searchAttributePairs({ ...own, ...labels }), ...(info.memo ? { memo: info.memo } : {}) };
}
