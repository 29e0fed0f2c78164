/**
 * What a run derives from its execution alone: the prompt the agent gets, the workspace id
 * (stable across retries), the pull request its checks report on, and when failures in a row
 * disable the automation.
 */
import { createHash } from 'node:crypto';
import { parsePullRequestDebounceKey } from './events';

/** Five failed executions in a row disable the automation. */
export const CIRCUIT_BREAKER_FAILURES = 5;

/** Whether the newest finished statuses (newest first, at most CIRCUIT_BREAKER_FAILURES) trip the breaker. */
export function tripsCircuitBreaker(recentStatuses: readonly string[]): boolean {
  return recentStatuses.length === CIRCUIT_BREAKER_FAILURES && recentStatuses.every((s) => s === 'failed');
}

/** The automation's prompt, with the trigger payload (when there is one) as JSON under its own heading. */
export function runPrompt(prompt: string, payload: unknown): string {
  const empty = payload === null || payload === undefined || (typeof payload === 'object' && Object.keys(payload as object).length === 0);
  if (empty) return prompt;
  return `${prompt}\n\n## Trigger Payload\n\n\`\`\`json\n${JSON.stringify(payload, null, 2)}\n\`\`\`\n`;
}

/** A UUID derived from a name (version 5 layout, SHA-256): the same name always gives the same id, so a retried step finds what it made. */
export function nameBasedUuid(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The workspace id of an execution's run: a UUID derived from the execution id. */
export const runWorkspaceId = (executionId: string): string => nameBasedUuid(`hangar:run-workspace:${executionId}`);

/** The follow-up message a grouped run sends to an earlier run's workspace. */
export const groupedMessageId = (executionId: string): string => nameBasedUuid(`hangar:grouped-message:${executionId}`);

/** The pull request a run's trigger payload names, when it is a code-hosting event with a head commit. */
export function pullRequestOf(payload: unknown): { repository: string; headSha: string; installationId: number | null } | null {
  const p = payload as { provider?: unknown; repository?: { full_name?: unknown }; pull_request?: { head?: { sha?: unknown } }; installation_id?: unknown } | null;
  if (!p || p.provider !== 'github') return null;
  const repository = p.repository?.full_name;
  const headSha = p.pull_request?.head?.sha;
  if (typeof repository !== 'string' || typeof headSha !== 'string' || !headSha) return null;
  return { repository, headSha, installationId: typeof p.installation_id === 'number' ? p.installation_id : null };
}

/**
 * The pull request a run may report checks on. A payload alone is not enough: a custom
 * webhook's or a manual trigger's caller writes whatever they like into it. Only a run that
 * came from a pull request's event (its key `pr:{repositoryId}:{number}`, which only the signed
 * code-hosting receivers write, or `pr-manual:…`, which only the manual trigger's `pr` writes,
 * each with a payload Hangar built from the delivery or from GitHub itself) names one, and only
 * the pull request that key names.
 */
export function trustedPullRequest(payload: unknown, originKey: string | null): ReturnType<typeof pullRequestOf> {
  const origin = parsePullRequestDebounceKey(originKey);
  const pr = pullRequestOf(payload);
  if (!origin || !pr) return null;
  const p = payload as { repository_id?: unknown; pull_request?: { number?: unknown } };
  if (typeof p.repository_id !== 'string' || p.repository_id.toLowerCase() !== origin.repositoryId) return null;
  if (p.pull_request?.number !== origin.number) return null;
  return pr;
}
