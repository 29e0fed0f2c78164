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
 * because the process died) is made up by the sweeper (`sweeper.ts`), which starts the
 * workflow of any window or execution left without one.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/gateway';
import type { DebounceWindowInput } from '../../../workflows/shared';

/** The automation row as the inbox reads it, under a shared lock, in the event's transaction. */
interface InboxAutomation {
  id: string;
  organization_id: string;
  enabled: boolean;
  debounce_seconds: number | null;
  config: unknown;
}

/** `null`: the automation is gone or disabled, and the event was not recorded. */
export type Accepted = { executionId: string } | { windowNo: number; opened: boolean } | null;

export interface InboxItem {
  automationId: string;
  /** The debounce key: `custom`, or `pr:{repositoryId}:{number}` for code-hosting events. */
  key: string;
  payload: Record<string, unknown>;
}

const UNIQUE_VIOLATION = '23505';
/** Delivery ids are remembered this long (the requirement is at least 72 hours). */
export const DELIVERY_RETENTION_DAYS = 7;
const OPEN_ATTEMPTS = 5;

/** A workflow start, run once the transaction that recorded its rows has committed. */
type Start = () => Promise<void>;

export function createAutomationInbox(deps: { db: Knex; temporal: Pick<TemporalGateway, 'startAutomationRun' | 'startDebounceWindow'>; logger: Logger }) {
  const { db, temporal } = deps;

  async function runNow(trx: Knex.Transaction, starts: Start[], automation: InboxAutomation, key: string, payload: Record<string, unknown>): Promise<Accepted> {
    const executionId = randomUUID();
    await trx('automation_executions').insert({
      id: executionId,
      automation_id: automation.id,
      organization_id: automation.organization_id,
      trigger_payload: JSON.stringify(payload),
      status: 'pending',
      config: JSON.stringify(automation.config ?? {}),
    });
    await trx('automation_events').insert({ automation_id: automation.id, debounce_key: key, execution_id: executionId, payload: JSON.stringify(payload) });
    starts.push(() => temporal.startAutomationRun({ executionId, automationId: automation.id, organizationId: automation.organization_id }));
    return { executionId };
  }

  async function joinOrOpen(trx: Knex.Transaction, starts: Start[], automation: InboxAutomation, key: string, payload: Record<string, unknown>): Promise<Accepted> {
    const where = { automation_id: automation.id, debounce_key: key };
    const open = await trx('automation_debounce_windows').where({ ...where, state: 'open' }).forShare().first('window_no');
    if (open) {
      await trx('automation_events').insert({ ...where, window_no: open.window_no, payload: JSON.stringify(payload) });
      return { windowNo: open.window_no as number, opened: false };
    }
    const last = await trx('automation_debounce_windows').where(where).max<{ max: number | null }>('window_no as max').first();
    const windowNo = Number(last?.max ?? 0) + 1;
    // A concurrent opener of the same number makes this insert fail (the caller retries and joins).
    await trx('automation_debounce_windows').insert({ ...where, window_no: windowNo });
    await trx('automation_events').insert({ ...where, window_no: windowNo, payload: JSON.stringify(payload) });
    const window: DebounceWindowInput = {
      automationId: automation.id,
      organizationId: automation.organization_id,
      debounceKey: key,
      windowNo,
      debounceSeconds: automation.debounce_seconds ?? 0,
    };
    starts.push(async () => {
      await temporal.startDebounceWindow(window);
      await db('automation_debounce_windows').where({ ...where, window_no: windowNo }).update({ workflow_started_at: db.fn.now() });
    });
    return { windowNo, opened: true };
  }

  /** Places one event for one automation in the caller's transaction. */
  async function place(trx: Knex.Transaction, starts: Start[], item: InboxItem): Promise<Accepted> {
    const automation: InboxAutomation | undefined = await trx('automations')
      .where({ id: item.automationId })
      .forShare()
      .first('id', 'organization_id', 'enabled', 'debounce_seconds', 'config');
    if (!automation || !automation.enabled) return null;
    if (!automation.debounce_seconds) return runNow(trx, starts, automation, item.key, item.payload);
    return joinOrOpen(trx, starts, automation, item.key, item.payload);
  }

  /**
   * The common case of a burst, in one statement and one round trip: a single event joining
   * an open window (with the same locks as `joinOrOpen`), its delivery id recorded only when
   * the event is. Null when it does not apply (no open window, debounce off, a disabled or
   * gone automation, a repeated delivery id: the delivery insert then fails the whole
   * statement); the transactional path then decides.
   */
  async function joinFast(item: InboxItem, delivery?: { provider: string; id: string }): Promise<Accepted> {
    try {
      const { rows } = await db.raw(
        `WITH a AS (
           SELECT id FROM automations WHERE id = :automationId AND enabled AND coalesce(debounce_seconds, 0) > 0 FOR SHARE
         ), w AS (
           SELECT window_no FROM automation_debounce_windows
            WHERE automation_id = :automationId AND debounce_key = :key AND state = 'open' FOR SHARE
         ), ev AS (
           INSERT INTO automation_events (automation_id, debounce_key, window_no, payload)
           SELECT :automationId, :key, w.window_no, :payload::jsonb FROM a, w
           RETURNING window_no
         ), d AS (
           INSERT INTO code_hosting_deliveries (provider, delivery_id)
           SELECT :provider, :deliveryId FROM ev WHERE :deliveryId::text IS NOT NULL
           RETURNING 1
         )
         SELECT window_no FROM ev`,
        {
          automationId: item.automationId,
          key: item.key,
          payload: JSON.stringify(item.payload),
          provider: delivery?.provider ?? '',
          deliveryId: delivery?.id ?? null,
        },
      );
      return rows.length ? { windowNo: rows[0].window_no as number, opened: false } : null;
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) return null;
      throw err;
    }
  }

  return {
    /**
     * Records events (one per automation an incoming delivery matched) in one transaction and
     * resolves once they are durable. Each automation row is read under a shared lock, so a
     * concurrent DELETE or PATCH waits for the event, and the event sees the automation as it
     * is after them. With `delivery`, a delivery id already recorded makes the whole call a
     * no-op (`duplicate`); it is recorded in the same transaction as the events.
     */
    async accept(items: InboxItem[], delivery?: { provider: string; id: string }): Promise<{ duplicate: boolean; accepted: Accepted[] }> {
      // A stable lock order: two deliveries matching the same automations cannot deadlock.
      if (items.length === 1) {
        const joined = await joinFast(items[0]!, delivery);
        if (joined) return { duplicate: false, accepted: [joined] };
      }
      const ordered = [...items].sort((a, b) => (a.automationId < b.automationId ? -1 : a.automationId > b.automationId ? 1 : 0));
      for (let attempt = 1; ; attempt++) {
        const starts: Start[] = [];
        try {
          const result = await db.transaction(async (trx) => {
            if (delivery) {
              const inserted = await trx('code_hosting_deliveries')
                .insert({ provider: delivery.provider, delivery_id: delivery.id })
                .onConflict(['provider', 'delivery_id'])
                .ignore()
                .returning('delivery_id');
              if (inserted.length === 0) return { duplicate: true, accepted: [] };
            }
            const accepted: Accepted[] = [];
            for (const item of ordered) accepted.push(await place(trx, starts, item));
            return { duplicate: false, accepted };
          });
          // Committed: the events are safe whatever happens to these starts.
          for (const start of starts) {
            await start().catch((err) => deps.logger.warn('workflow start deferred to the sweeper', { err }));
          }
          return result;
        } catch (err) {
          if ((err as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= OPEN_ATTEMPTS) throw err;
        }
      }
    },

    /** Forgets code-hosting delivery ids older than `days` (they are kept at least 72 h). */
    async pruneDeliveries(days = DELIVERY_RETENTION_DAYS): Promise<number> {
      return db('code_hosting_deliveries').where('received_at', '<', db.raw(`now() - make_interval(days => ?)`, [days])).delete();
    },
  };
}

export type AutomationInbox = ReturnType<typeof createAutomationInbox>;
