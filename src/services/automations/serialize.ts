/** The API's view of an automation and of an execution (interop §10). */
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { ExecutionRow } from '../../db/automationExecutionsRepository';
import type { AutomationRow } from '../../db/automationsRepository';
import { normaliseConfig } from '../../domain/automations/rules';

export const webhookTokenField = (automationId: string) => sealedField('automations', 'webhook_token_sealed', automationId);

/** The webhook token is shown (unsealed) only while the automation has a custom trigger. */
export function serializeAutomation(row: AutomationRow, secretBox: SecretBox) {
  const hasCustom = row.triggers.some((t) => t.type === 'custom');
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    description: row.description,
    triggers: row.triggers,
    prompt: row.prompt,
    debounce_seconds: row.debounce_seconds,
    vcs_check_names: row.vcs_check_names,
    environment_id: row.environment_id,
    enabled: row.enabled,
    webhook_token: hasCustom && row.webhook_token_sealed ? secretBox.open(row.webhook_token_sealed, webhookTokenField(row.id)) : null,
    cron_expression: row.cron_expression,
    cron_timezone: row.cron_timezone,
    cron_next_fire_at: row.cron_next_fire_at ? row.cron_next_fire_at.toISOString() : null,
    user_id: row.user_id,
    created_by: row.created_by,
    workspace_auto_stop_minutes: row.workspace_auto_stop_minutes,
    config: answerConfig(row.config),
    model: row.model,
    plan_mode: row.plan_mode,
    goal_mode: row.goal_mode,
    fast_mode: row.fast_mode,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    workspace_lifecycle_policy: row.workspace_lifecycle_policy,
    workspace_size: row.workspace_size,
    agent_provider: row.agent_provider,
    thinking_level: row.thinking_level,
  };
}

export function serializeExecution(row: ExecutionRow) {
  return {
    id: row.id,
    automation_id: row.automation_id,
    organization_id: row.organization_id,
    workspace_id: row.workspace_id,
    triggered_at: row.triggered_at.toISOString(),
    trigger_payload: row.trigger_payload ?? {},
    status: row.status,
    config: withoutEmptyProvisioningError(row.config ?? {}),
    error: row.error,
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
  };
}

/** An execution's config as it ran (a snapshot of its automation's), with `provisioning_error` only when there is one, as the original answers it. */
function withoutEmptyProvisioningError(config: Record<string, unknown>): Record<string, unknown> {
  const { provisioning_error: error, ...rest } = config;
  return error ? config : rest;
}

/** The stored config as the original answers it: `provisioning_error` only when there is one. */
function answerConfig(stored: Parameters<typeof normaliseConfig>[0] & { provisioning_error?: { message: string } | null }) {
  const { provisioning_error: error, ...config } = normaliseConfig(stored, stored?.provisioning_error ?? null);
  return error ? { ...config, provisioning_error: error } : config;
}
