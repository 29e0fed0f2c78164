/**
 * Automation bodies and record. The trigger list is checked here only for its outer shape
 * (`{type, config}`); each trigger's config, the duplicate rules and the rules that span
 * fields live in `domain/automations/rules.ts`, so every 400 names the rule it breaks.
 */
import { type BodyOf, dateTime, type JsonSchema, nullableUuid, object, pageEnvelope, pageQuery, type QueryOf, uuid } from './common';

export const TRIGGER_TYPES = ['cron', 'github', 'gitlab', 'slack', 'sentry', 'custom'] as const;
export const LIFECYCLE_POLICIES = ['default', 'archive_when_done', 'sleep_when_done', 'delete_after_inactivity'] as const;
export const WORKSPACE_SIZES = ['small', 'large'] as const;
const AGENTS = ['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5'] as const;
const THINKING = ['low', 'medium', 'high', 'xhigh', 'max', 'ultra', 'ultracode'] as const;

const triggerSchema = object(
  {
    type: { enum: [...TRIGGER_TYPES] },
    config: { type: 'object' },
  },
  ['type'],
);

const flags = <const N extends readonly string[]>(names: N) =>
  ({
    type: ['object', 'null'],
    additionalProperties: false,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'boolean' }])) as { [K in N[number]]: { type: 'boolean' } },
  }) as const;

const configBody = object({
  capabilities: flags(['pr_followups', 'read_only_contents']),
  preferences: flags(['keep_open_on_pr_merge', 'keep_open_on_pr_close']),
});

const editable = {
  name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
  description: { type: ['string', 'null'], maxLength: 2000 },
  triggers: { type: 'array', minItems: 1, maxItems: 20, items: triggerSchema },
  prompt: { type: 'string', minLength: 1, maxLength: 100_000, pattern: '\\S' },
  debounce_seconds: { type: ['integer', 'null'], minimum: 0, maximum: 86400 },
  vcs_check_names: { type: 'array', maxItems: 10, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 100 } },
  environment_id: uuid,
  enabled: { type: 'boolean' },
  workspace_lifecycle_policy: { enum: [...LIFECYCLE_POLICIES] },
  workspace_auto_stop_minutes: { type: ['integer', 'null'], minimum: 3, maximum: 1440 },
  workspace_size: { enum: [...WORKSPACE_SIZES] },
  config: configBody,
  agent_provider: { enum: [...AGENTS, null] },
  model: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
  thinking_level: { enum: [...THINKING, null] },
  plan_mode: { type: 'boolean' },
  goal_mode: { type: ['boolean', 'null'] },
  fast_mode: { type: ['boolean', 'null'] },
} as const;

export const createAutomationBody = object(
  { ...editable, scope: { enum: ['org', 'user'] } },
  ['name', 'prompt', 'environment_id', 'triggers'],
);

export const updateAutomationBody = { ...object(editable), minProperties: 1 } as const;

export const automationIdParams = object({ id: uuid }, ['id']);

export const listAutomationsQuery = pageQuery(20, {
  enabled: { type: 'boolean' },
  search: { type: 'string', maxLength: 200 },
  trigger_type: { enum: ['all', ...TRIGGER_TYPES], default: 'all' },
  scope: { enum: ['org', 'user', 'all'], default: 'org' },
});

const nullableString: JsonSchema = { type: ['string', 'null'] };
const nullableInt: JsonSchema = { type: ['integer', 'null'] };

/** The workspace config an automation gives its workspaces (the original's `WorkspaceConfig`); an execution answers the one it ran with. */
const workspaceConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    capabilities: { type: 'object', properties: { pr_followups: { type: 'boolean' }, read_only_contents: { type: 'boolean' } } },
    preferences: { type: 'object', properties: { keep_open_on_pr_merge: { type: 'boolean' }, keep_open_on_pr_close: { type: 'boolean' } } },
    provisioning_error: { type: 'object', properties: { message: { type: 'string' } }, description: 'Only when a workspace of the automation failed to provision' },
  },
};
export const automationSchema: JsonSchema = {
  type: 'object',
  required: [
    'id', 'organization_id', 'name', 'description', 'triggers', 'prompt', 'debounce_seconds', 'vcs_check_names',
    'environment_id', 'enabled', 'webhook_token', 'cron_expression', 'cron_timezone', 'cron_next_fire_at', 'user_id',
    'created_by', 'workspace_auto_stop_minutes', 'config', 'model', 'plan_mode', 'goal_mode', 'fast_mode', 'created_at',
    'updated_at', 'workspace_lifecycle_policy', 'workspace_size', 'agent_provider', 'thinking_level',
  ],
  properties: {
    id: uuid,
    organization_id: uuid,
    name: { type: 'string' },
    description: nullableString,
    triggers: {
      type: 'array',
      items: { type: 'object', required: ['type', 'config'], properties: { type: { enum: [...TRIGGER_TYPES] }, config: { type: 'object' } } },
    },
    prompt: { type: 'string' },
    debounce_seconds: nullableInt,
    vcs_check_names: { type: 'array', items: { type: 'string' } },
    environment_id: uuid,
    enabled: { type: 'boolean' },
    webhook_token: { ...nullableString, 'x-secret': true, description: 'Present only with a custom trigger' },
    cron_expression: nullableString,
    cron_timezone: nullableString,
    cron_next_fire_at: { type: ['string', 'null'], format: 'date-time' },
    user_id: nullableUuid,
    created_by: nullableUuid,
    workspace_auto_stop_minutes: nullableInt,
    config: workspaceConfigSchema,
    model: nullableString,
    plan_mode: { type: 'boolean' },
    goal_mode: { type: ['boolean', 'null'] },
    fast_mode: { type: ['boolean', 'null'] },
    created_at: dateTime,
    updated_at: dateTime,
    workspace_lifecycle_policy: { enum: [...LIFECYCLE_POLICIES] },
    workspace_size: { enum: [...WORKSPACE_SIZES] },
    agent_provider: { enum: [...AGENTS, null] },
    thinking_level: { enum: [...THINKING, null] },
  },
};

export const automationEnvelope = object({ automation: automationSchema }, ['automation']);
export const automationPage = pageEnvelope('automations', automationSchema);

export const triggerAutomationBody = object({
  payload: { type: 'object', description: 'Embedded in the prompt under `## Trigger Payload`' },
  pr: {
    ...object({ repository_id: uuid, number: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, ['repository_id', 'number']),
    description: 'A pull request to run for (automations with a github pull_request.command trigger covering the repository); its context is read from GitHub',
  },
});

export const triggerAutomationResponse: JsonSchema = object(
  { execution_id: uuid, workspace_id: { ...nullableUuid, description: 'Null when the run had not created its workspace within ~15 s' } },
  ['execution_id', 'workspace_id'],
);

export const executionSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'automation_id', 'organization_id', 'workspace_id', 'triggered_at', 'trigger_payload', 'status', 'config', 'error', 'completed_at'],
  properties: {
    id: uuid,
    automation_id: uuid,
    organization_id: uuid,
    workspace_id: nullableUuid,
    triggered_at: dateTime,
    trigger_payload: { type: 'object' },
    status: { enum: ['pending', 'creating', 'running', 'completed', 'failed'] },
    config: workspaceConfigSchema,
    error: nullableString,
    completed_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

export const listExecutionsQuery = pageQuery(20);
export const executionPage = pageEnvelope('executions', executionSchema);

export type CreateAutomationInput = BodyOf<typeof createAutomationBody>;
export type UpdateAutomationInput = BodyOf<typeof updateAutomationBody>;
export type TriggerAutomationInput = BodyOf<typeof triggerAutomationBody>;
export type ListAutomationsQuery = QueryOf<typeof listAutomationsQuery>;
