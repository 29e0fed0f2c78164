/** What the automation routes hand to the service, already validated against their schemas. */
import type { AgentSettings, ConfigInput } from '../../domain/automations/rules';

export interface UpdateAutomationInput extends Partial<AgentSettings> {
  name?: string;
  description?: string | null;
  triggers?: Array<{ type: string; config?: Record<string, unknown> }>;
  prompt?: string;
  debounce_seconds?: number | null;
  vcs_check_names?: string[];
  environment_id?: string;
  enabled?: boolean;
  workspace_lifecycle_policy?: string;
  workspace_auto_stop_minutes?: number | null;
  workspace_size?: string;
  config?: ConfigInput;
}

export interface CreateAutomationInput extends UpdateAutomationInput {
  name: string;
  prompt: string;
  environment_id: string;
  triggers: Array<{ type: string; config?: Record<string, unknown> }>;
  scope?: 'org' | 'user';
}

export type AutomationScope = 'org' | 'user' | 'all';

export interface ListAutomationsQuery {
  page: number;
  limit: number;
  enabled?: boolean;
  search?: string;
  trigger_type: string;
  scope: AutomationScope;
}
