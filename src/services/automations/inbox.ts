/**
 * The durable inbox of event triggers (custom webhooks, code-hosting events). Every accepted
 * event is one row in `automation_events`, written in the transaction that places it:
 *
 * - debounce off: the event gets its own `pending` execution and `run/{executionId}`;
 * - debounce on: the event joins its key's open window, or opens the next one and starts
 *   `debounce/{automation}/{key}/{window}` — the only Temporal call a burst makes.
 *
 * Joining takes a shared lock on the open window row and closing takes an exclusive one, so
 * any number of events join concurrently, and an event racing the close either commits into
 * the window before it closes or waits and opens the next window. The window's deadline is
 * derived (its newest event + debounce_seconds), so joining writes no hot row.
 *
 * Workflows are started after the commit, so an event is accepted as soon as it is durable in
 * PostgreSQL, even while Temporal cannot be reached. A start that fails (or never happens,
 * because the process died) is made up by the worker's sweeper (`src/temporal/inboxSweeper.ts`),
 * which starts the workflow of any window or execution left without one.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Repositories, Transaction } from '../../db';
import type { DeliveryMark } from '../../db/automationInboxRepository';
import type { InboxAutomation } from '../../db/automationsRepository';
import { DomainError } from '../../domain/errors';
import { isUniqueViolation } from '../../db/errors';
import type { Logger } from '../../logger';
import type { WorkflowControl } from '../../temporal/workflowControl';
import type { DebounceWindowInput } from '../../../workflows/shared';

/** `null`: the automation is gone or disabled, and the event was not recorded. */
export type Accepted = { executionId: string } | { windowNo: number; opened: boolean } | null;

export interface InboxItem {
  automationId: string;
  /** The debounce key: `custom`, or `pr:{repositoryId}:{number}` for code-hosting events. */
  key: string;
  payload: Record<string, unknown>;
  /** The event's source (`github`, `gitlab`, `slack`, `sentry`, `custom`): its runs' HangarTrigger. */
  trigger: string;
}

/** Delivery ids are remembered this long (the requirement is at least 72 hours). */
export const DELIVERY_RETENTION_DAYS = 7;
const OPEN_ATTEMPTS = 5;
/**
 * How long an accepted delivery waits for its workflow starts before it is answered. Starts
 * take milliseconds; while Temporal is down the client retries for about 20 s, past GitHub's
 * 10-second delivery timeout. The events are committed by then, so the answer need not wait:
 * a start still pending goes on in the background, and the worker's sweeper makes up any that
 * fail.
 */
export const START_WAIT_MS = 2000;

/** The same idempotency key on a request that is not the same (draft-ietf-httpapi-idempotency-key-header: 422). */
const keyReused = () =>
  new DomainError('unprocessable', 'Idempotency key reused', 'this Idempotency-Key was used for a request with a different body; use a new key for a new request');

/** A workflow start, run once the transaction that recorded its rows has committed. */
type Start = () => Promise<void>;

export function createAutomationInbox(deps: {
  repos: Pick<Repositories, 'transact' | 'automations' | 'automationExecutions' | 'automationInbox'>;
  temporal: Pick<WorkflowControl, 'startAutomationRun' | 'startDebounceWindow'>;
  logger: Logger;
  startWaitMs?: number;
}) {
  const { temporal } = deps;
  const { automations, automationExecutions: executions, automationInbox: inbox } = deps.repos;

  async function runNow(trx: Transaction, starts: Start[], automation: InboxAutomation, item: InboxItem): Promise<Accepted> {
    const { key, payload } = item;
    const executionId = randomUUID();
    await executions.insertPending(
      { id: executionId, automationId: automation.id, organizationId: automation.organization_id, payload, config: automation.config ?? {} },
      trx,
    );
    await inbox.recordEvent({ automationId: automation.id, debounceKey: key, executionId, payload }, trx);
    const context = { trigger: item.trigger, names: { automationName: automation.name } };
    starts.push(() => temporal.startAutomationRun({ executionId, automationId: automation.id, organizationId: automation.organization_id }, context));
    return { executionId };
  }

  async function joinOrOpen(trx: Transaction, starts: Start[], automation: InboxAutomation, item: InboxItem): Promise<Accepted> {
    const { key, payload } = item;
    const open = await inbox.lockOpenWindow(automation.id, key, trx);
    if (open !== null) {
      await inbox.recordEvent({ automationId: automation.id, debounceKey: key, windowNo: open, payload }, trx);
      return { windowNo: open, opened: false };
    }
    const windowNo = (await inbox.lastWindowNo(automation.id, key, trx)) + 1;
    const window = { automationId: automation.id, debounceKey: key, windowNo };
    // A concurrent opener of the same number makes this insert fail (the caller retries and joins).
    await inbox.openWindow(window, trx);
    await inbox.recordEvent({ ...window, payload }, trx);
    const input: DebounceWindowInput = { ...window, organizationId: automation.organization_id, debounceSeconds: automation.debounce_seconds ?? 0 };
    starts.push(async () => {
      await temporal.startDebounceWindow(input, { trigger: item.trigger, names: { automationName: automation.name } });
      await inbox.markWindowStarted(window);
    });
    return { windowNo, opened: true };
  }

  /** Places one event for one automation in the caller's transaction. */
  async function place(trx: Transaction, starts: Start[], item: InboxItem): Promise<Accepted> {
    const automation = await automations.lockForEvent(item.automationId, trx);
    if (!automation || !automation.enabled) return null;
    if (!automation.debounce_seconds) return runNow(trx, starts, automation, item);
    return joinOrOpen(trx, starts, automation, item);
  }

  return {
    /**
     * Records events (one per automation an incoming delivery matched) in one transaction and
     * resolves once they are durable. Each automation row is read under a shared lock, so a
     * concurrent DELETE or PATCH waits for the event, and the event sees the automation as it
     * is after them. With `delivery`, a delivery id already recorded makes the whole call a
     * no-op (`duplicate`); it is recorded in the same transaction as the events. An id recorded
     * with another request's fingerprint is refused (422): the key was reused for a new request.
     */
    async accept(items: InboxItem[], delivery?: DeliveryMark): Promise<{ duplicate: boolean; accepted: Accepted[] }> {
      // The common case of a burst first: one event joining an open window, in one statement.
      if (items.length === 1) {
        const item = items[0]!;
        const windowNo = await inbox.joinOpenWindow({ automationId: item.automationId, debounceKey: item.key, payload: item.payload }, delivery);
        if (windowNo !== null) return { duplicate: false, accepted: [{ windowNo, opened: false }] };
      }
      // A stable lock order: two deliveries matching the same automations cannot deadlock.
      const ordered = [...items].sort((a, b) => (a.automationId < b.automationId ? -1 : a.automationId > b.automationId ? 1 : 0));
      for (let attempt = 1; ; attempt++) {
        const starts: Start[] = [];
        try {
          const result = await deps.repos.transact(async (trx) => {
            const seen = delivery ? await inbox.recordDelivery(delivery, trx) : 'new';
            if (seen === 'mismatch') throw keyReused();
            if (seen === 'duplicate') return { duplicate: true, accepted: [] };
            const accepted: Accepted[] = [];
            for (const item of ordered) accepted.push(await place(trx, starts, item));
            return { duplicate: false, accepted };
          });
          // Committed: the events are safe whatever happens to these starts.
          const started = Promise.all(starts.map((start) => start().catch((err) => deps.logger.warn('workflow start deferred to the sweeper', { err }))));
          let timer: NodeJS.Timeout | undefined;
          const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, deps.startWaitMs ?? START_WAIT_MS)));
          await Promise.race([started, waited]).finally(() => clearTimeout(timer));
          return result;
        } catch (err) {
          if (!isUniqueViolation(err) || attempt >= OPEN_ATTEMPTS) throw err;
        }
      }
    },

    /**
     * Whether a verified body was delivered before under another delivery id (or none): a
     * replay, since the id is not signed. The same body under the same id is GitHub's own
     * redelivery, which the delivery id answers for. Bodies are kept as long as delivery ids.
     */
    async isReplayedBody(provider: string, body: Buffer, deliveryId: string | undefined): Promise<boolean> {
      const digest = createHash('sha256').update(body).digest('hex');
      const seen = await inbox.recordDeliveryBody(provider, digest, deliveryId || null, DELIVERY_RETENTION_DAYS);
      return !seen.first && !(deliveryId && seen.deliveryId === deliveryId);
    },

    /** Forgets code-hosting delivery ids and bodies older than `days` (they are kept at least 72 h). */
    pruneDeliveries: (days = DELIVERY_RETENTION_DAYS): Promise<number> => inbox.pruneDeliveries(days),
  };
}

export type AutomationInbox = ReturnType<typeof createAutomationInbox>;
