/** What a workflow carries to be found by in the Temporal UI (workflows/shared.ts). */
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair, type TypedSearchAttributes } from '@temporalio/common';

/**
 * Custom search attributes on every workflow Hangar starts, so that an operator finds a
 * workflow in the Temporal UI by what it belongs to (`HangarAutomationId = "…"`). They must be
 * registered on the namespace: the dev server gets them at start, a cluster by
 * `temporal operator search-attribute create` (docs/operations.md).
 */
export const SEARCH_ATTRIBUTES = {
  organizationId: defineSearchAttributeKey('HangarOrganizationId', SearchAttributeType.KEYWORD),
  automationId: defineSearchAttributeKey('HangarAutomationId', SearchAttributeType.KEYWORD),
  replicaId: defineSearchAttributeKey('HangarReplicaId', SearchAttributeType.KEYWORD),
  executionId: defineSearchAttributeKey('HangarExecutionId', SearchAttributeType.KEYWORD),
  /** How it started: `manual`, `cron`, or the event's source (`github`, `gitlab`, `slack`, `sentry`, `custom`). */
  trigger: defineSearchAttributeKey('HangarTrigger', SearchAttributeType.KEYWORD),
} as const;

export type WorkflowLabels = Partial<Record<keyof typeof SEARCH_ATTRIBUTES, string>>;

/** Human names shown with a workflow in the Temporal UI, where the starter already has them. */
export interface WorkflowMemo {
  automationName?: string;
  replicaName?: string;
}

const LABELS = Object.keys(SEARCH_ATTRIBUTES) as Array<keyof typeof SEARCH_ATTRIBUTES>;

/** The pairs of the labels that have a value (an unknown id is left out, never set empty). */
export function searchAttributePairs(labels: WorkflowLabels): SearchAttributePair[] {
  return LABELS.filter((label) => labels[label]).map((label) => ({ key: SEARCH_ATTRIBUTES[label], value: labels[label]! }));
}

/** The labels a workflow carries (its own, read to pass on to the workflows it starts). */
export function labelsOf(attributes: TypedSearchAttributes): WorkflowLabels {
  const labels: WorkflowLabels = {};
  for (const label of LABELS) {
    const value = attributes.get(SEARCH_ATTRIBUTES[label]);
    if (value) labels[label] = value;
  }
  return labels;
}
