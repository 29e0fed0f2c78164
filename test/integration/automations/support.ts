/** Shared fixtures for the automation tests: an organization with a team environment. */
import { as, newOrg } from '../../support/http';

export async function automationOrg() {
  const org = await newOrg('automations');
  const api = as(org.org_api_key);
  const env = (await api.post('/v1/environments', { name: 'automations' })).body.environment;
  const body = (over: Record<string, unknown> = {}) => ({
    name: 'Nightly review',
    prompt: 'Review the open pull requests.',
    environment_id: env.id,
    triggers: [{ type: 'cron', config: { schedule: '0 3 * * *', timezone: 'Europe/Paris' } }],
    ...over,
  });
  return { org, api, env, body };
}

export const RECORD_FIELDS = [
  'id', 'organization_id', 'name', 'description', 'triggers', 'prompt', 'debounce_seconds', 'vcs_check_names',
  'environment_id', 'enabled', 'webhook_token', 'cron_expression', 'cron_timezone', 'cron_next_fire_at', 'user_id',
  'created_by', 'workspace_auto_stop_minutes', 'config', 'model', 'plan_mode', 'goal_mode', 'fast_mode', 'created_at',
  'updated_at', 'workspace_lifecycle_policy', 'workspace_size', 'agent_provider', 'thinking_level',
];

export const PR_OPENED = { type: 'github', config: { event: 'pull_request.opened' } };
export const PR_SYNC = { type: 'github', config: { event: 'pull_request.synchronize' } };
export const MR_OPENED = { type: 'gitlab', config: { event: 'merge_request.opened' } };
export const CUSTOM = { type: 'custom', config: {} };
export const cron = (schedule: string, timezone?: string) => ({ type: 'cron', config: timezone ? { schedule, timezone } : { schedule } });
