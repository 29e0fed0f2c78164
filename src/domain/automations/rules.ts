/**
 * Automation rules that are not plain JSON Schema: each trigger's config, the duplicate
 * rules, and the rules that span fields (checks need a pull-request trigger, model needs an
 * agent, modes the agent lacks). Every failure is an `invalid` error whose details name the
 * field and the rule. Cross-field rules run on the merged record, so a PATCH cannot reach a state a
 * create would refuse.
 */
import { modeViolation, type AgentId, type ThinkingLevel } from '../../agents/catalog';
import { CronError, isValidTimeZone, nextFireAt, parseCron } from '../cron';
import { invalid as invalidInput } from '../errors';
import { normaliseSentryConfig, type SentryTriggerConfig } from './sentry';

export const GITHUB_EVENTS = ['pull_request.opened', 'pull_request.synchronize', 'pull_request.closed', 'pull_request.merged', 'pull_request.command'] as const;
export const GITLAB_EVENTS = ['merge_request.opened', 'merge_request.updated', 'merge_request.closed', 'merge_request.merged', 'merge_request.command'] as const;
/** Events that can carry checks (`vcs_check_names`). */
const CHECK_EVENTS = ['pull_request.opened', 'pull_request.synchronize'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CronTrigger {
  type: 'cron';
  config: { schedule: string; timezone: string };
}
export interface CodeHostTrigger {
  type: 'github' | 'gitlab';
  config: { event: string; repository_ids: string[]; excluded_actors: string[]; group_pr_events: boolean };
}
/** Messages in the connected Slack workspace's channels (all of them when `channel_ids` is empty). */
export interface SlackTrigger {
  type: 'slack';
  config: { event: 'message'; channel_ids: string[]; group_thread_replies: boolean };
}
export interface CustomTrigger {
  type: 'custom';
  config: Record<string, never>;
}
export interface SentryTrigger {
  type: 'sentry';
  config: SentryTriggerConfig;
}
export type Trigger = CronTrigger | CodeHostTrigger | SlackTrigger | CustomTrigger | SentryTrigger;

export interface AutomationConfig {
  capabilities: { pr_followups: boolean; read_only_contents: boolean };
  preferences: { keep_open_on_pr_merge: boolean; keep_open_on_pr_close: boolean };
  provisioning_error: { message: string } | null;
}

export interface ConfigInput {
  capabilities?: { pr_followups?: boolean; read_only_contents?: boolean } | null;
  preferences?: { keep_open_on_pr_merge?: boolean; keep_open_on_pr_close?: boolean } | null;
}

const invalid = (details: string) => invalidInput('Invalid body', details);

function stringList(value: unknown, at: string, item: (v: string, i: number) => void): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${at}: must be an array`);
  if (value.length > 100) throw invalid(`${at}: at most 100 entries`);
  value.forEach((v, i) => {
    if (typeof v !== 'string') throw invalid(`${at}.${i}: must be a string`);
    item(v, i);
  });
  const list = value as string[];
  const seen = new Set<string>();
  for (const v of list) {
    const k = v.toLowerCase();
    if (seen.has(k)) throw invalid(`${at}: duplicate entry "${v}"`);
    seen.add(k);
  }
  return list;
}

/** Validates and normalises one trigger (defaults filled in). */
function normaliseTrigger(raw: { type: string; config?: Record<string, unknown> }, i: number): Trigger {
  const at = `body.triggers.${i}.config`;
  const config = raw.config ?? {};
  switch (raw.type) {
    case 'cron': {
      for (const key of Object.keys(config)) if (key !== 'schedule' && key !== 'timezone') throw invalid(`${at}.${key}: unknown field`);
      const { schedule, timezone } = config as { schedule?: unknown; timezone?: unknown };
      if (typeof schedule !== 'string') throw invalid(`${at}.schedule: is required (a cron expression of five fields)`);
      try {
        parseCron(schedule);
      } catch (err) {
        if (err instanceof CronError) throw invalid(`${at}.schedule: ${err.message}`);
        throw err;
      }
      if (timezone !== undefined && timezone !== null && typeof timezone !== 'string') throw invalid(`${at}.timezone: must be a string`);
      const tz = (timezone as string | null | undefined) ?? 'UTC';
      if (!isValidTimeZone(tz)) throw invalid(`${at}.timezone: "${tz}" is not an IANA time zone name`);
      return { type: 'cron', config: { schedule: schedule.trim(), timezone: tz } };
    }
    case 'github':
    case 'gitlab': {
      for (const key of Object.keys(config)) {
        if (!['event', 'repository_ids', 'excluded_actors', 'group_pr_events'].includes(key)) throw invalid(`${at}.${key}: unknown field`);
      }
      const events: readonly string[] = raw.type === 'github' ? GITHUB_EVENTS : GITLAB_EVENTS;
      const event = config.event;
      if (typeof event !== 'string' || !events.includes(event)) {
        throw invalid(`${at}.event: a ${raw.type} trigger's event must be one of ${events.join(', ')}`);
      }
      const repositoryIds = stringList(config.repository_ids, `${at}.repository_ids`, (v, j) => {
        if (!UUID.test(v)) throw invalid(`${at}.repository_ids.${j}: must be a repository UUID`);
      });
      const excludedActors = stringList(config.excluded_actors, `${at}.excluded_actors`, (v, j) => {
        if (v.trim().length === 0 || v.length > 100) throw invalid(`${at}.excluded_actors.${j}: must be 1 to 100 characters`);
      });
      const group = config.group_pr_events;
      if (group !== undefined && group !== null && typeof group !== 'boolean') throw invalid(`${at}.group_pr_events: must be a boolean`);
      return {
        type: raw.type,
        config: { event, repository_ids: repositoryIds.map((r) => r.toLowerCase()), excluded_actors: excludedActors, group_pr_events: group ?? false },
      };
    }
    case 'custom':
      if (Object.keys(config).length > 0) throw invalid(`${at}.${Object.keys(config)[0]}: unknown field (a custom trigger's config is {})`);
      return { type: 'custom', config: {} };
    case 'slack':
      return normaliseSlackTrigger(config, at);
    case 'sentry':
      return { type: 'sentry', config: normaliseSentryConfig(config, at, invalid) };
    default:
      throw invalid(`body.triggers.${i}.type: unknown trigger type ${raw.type}`);
  }
}

/** Public and private channels; direct conversations go to the bot itself, not to automations. */
const SLACK_CHANNEL_ID = /^[CG][A-Z0-9]{2,39}$/;

/** `{event: "message", channel_ids?, group_thread_replies?}` (interop §10.3); grouping defaults to on. */
function normaliseSlackTrigger(config: Record<string, unknown>, at: string): SlackTrigger {
  for (const key of Object.keys(config)) {
    if (!['event', 'channel_ids', 'group_thread_replies'].includes(key)) throw invalid(`${at}.${key}: unknown field`);
  }
  if (config.event !== 'message') throw invalid(`${at}.event: a slack trigger's event must be message`);
  const channelIds = stringList(config.channel_ids, `${at}.channel_ids`, (v, j) => {
    if (!SLACK_CHANNEL_ID.test(v)) throw invalid(`${at}.channel_ids.${j}: must be a Slack channel id such as C0123456789`);
  });
  const group = config.group_thread_replies;
  if (group !== undefined && group !== null && typeof group !== 'boolean') throw invalid(`${at}.group_thread_replies: must be a boolean`);
  return { type: 'slack', config: { event: 'message', channel_ids: channelIds, group_thread_replies: group ?? true } };
}

/** Validates a whole trigger list (it replaces the stored one) including the duplicate rules. */
export function normaliseTriggers(raw: Array<{ type: string; config?: Record<string, unknown> }>): Trigger[] {
  const triggers = raw.map(normaliseTrigger);
  if (triggers.filter((t) => t.type === 'cron').length > 1) throw invalid('body.triggers: at most one cron trigger per automation');
  if (triggers.filter((t) => t.type === 'custom').length > 1) throw invalid('body.triggers: at most one custom trigger per automation');
  if (triggers.filter((t) => t.type === 'slack').length > 1) throw invalid('body.triggers: at most one slack trigger per automation');
  const events = new Set<string>();
  for (const t of triggers) {
    // Every trigger type with an event (code hosting, sentry): event names differ across providers.
    const event = 'event' in t.config ? t.config.event : null;
    if (typeof event !== 'string') continue;
    if (events.has(event)) throw invalid(`body.triggers: at most one trigger per event; ${event} appears more than once`);
    events.add(event);
  }
  return triggers;
}

/**
 * The manual trigger's `pr` (interop §10.5) needs a GitHub `pull_request.command` trigger that
 * covers the repository (no `repository_ids`, or a list naming it). Returns why not, or null.
 */
export function manualPullRequestRefusal(triggers: ReadonlyArray<{ type: string; config: unknown }>, repositoryId: string): string | null {
  const command = triggers.find((t) => t.type === 'github' && (t.config as { event?: unknown }).event === 'pull_request.command');
  if (!command) return 'body.pr: only an automation with a github pull_request.command trigger can be fired for a pull request';
  const ids = ((command.config as { repository_ids?: string[] }).repository_ids ?? []).map((id) => id.toLowerCase());
  if (ids.length > 0 && !ids.includes(repositoryId.toLowerCase())) {
    return `body.pr.repository_id: the pull_request.command trigger does not cover repository ${repositoryId}`;
  }
  return null;
}

export function normaliseConfig(input: ConfigInput | undefined | null, provisioningError: AutomationConfig['provisioning_error'] = null): AutomationConfig {
  const c = input?.capabilities ?? {};
  const p = input?.preferences ?? {};
  return {
    capabilities: { pr_followups: c.pr_followups ?? false, read_only_contents: c.read_only_contents ?? false },
    preferences: { keep_open_on_pr_merge: p.keep_open_on_pr_merge ?? false, keep_open_on_pr_close: p.keep_open_on_pr_close ?? false },
    provisioning_error: provisioningError,
  };
}

/** The top-level cron columns mirror the cron trigger; the next fire is computed from now. */
export function cronMirror(triggers: Trigger[], now: Date = new Date()) {
  const cron = triggers.find((t): t is CronTrigger => t.type === 'cron');
  if (!cron) return { cron_expression: null, cron_timezone: null, cron_next_fire_at: null };
  return {
    cron_expression: cron.config.schedule,
    cron_timezone: cron.config.timezone,
    cron_next_fire_at: nextFireAt(parseCron(cron.config.schedule), cron.config.timezone, now),
  };
}

/** Which agent runs an automation and how; null means the organization's default. */
export interface AgentSettings {
  agent_provider: AgentId | null;
  model: string | null;
  thinking_level: ThinkingLevel | null;
  plan_mode: boolean;
  goal_mode: boolean | null;
  fast_mode: boolean | null;
}

export interface MergedSettings extends AgentSettings {
  triggers: Trigger[];
  vcs_check_names: string[];
}

/** The rules that span fields, checked on the record as it would be after the write. */
export function checkCrossFieldRules(s: MergedSettings): void {
  if (s.vcs_check_names.length > 0) {
    const hasPrTrigger = s.triggers.some((t) => t.type === 'github' && CHECK_EVENTS.includes(t.config.event));
    if (!hasPrTrigger) {
      throw invalid('body.vcs_check_names: a non-empty list needs a pull_request.opened or pull_request.synchronize trigger (send [] to stop checks)');
    }
  }
  if (s.model !== null && s.agent_provider === null) throw invalid('body.model: a model override requires agent_provider');
  if (s.agent_provider === null) {
    if (s.thinking_level === 'ultra') throw invalid('body.thinking_level: ultra is only available with agent_provider agent_2');
    if (s.thinking_level === 'ultracode') throw invalid('body.thinking_level: ultracode is only available with agent_provider agent_1');
    return;
  }
  const violation = modeViolation(s.agent_provider, s);
  if (violation) {
    const field = /thinking_level/.test(violation) ? 'thinking_level' : /plan mode/.test(violation) ? 'plan_mode' : /goal mode/.test(violation) ? 'goal_mode' : /fast mode/.test(violation) ? 'fast_mode' : 'thinking_level';
    throw invalid(`body.${field}: ${violation}`);
  }
}
