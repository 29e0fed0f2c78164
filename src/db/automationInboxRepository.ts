/**
 * SQL for the event inbox: recorded events (`automation_events`), their debounce windows
 * (`automation_debounce_windows`) and the code-hosting delivery ids and signed bodies already
 * seen (`code_hosting_deliveries`, `code_hosting_delivery_bodies`). A window's deadline is
 * derived from its newest event, so joining a window writes no hot row.
 */
import type { Knex } from 'knex';
import { isUniqueViolation } from './errors';

/** One debounce window: the automation, the key events are grouped by, and its number. */
export interface WindowKey {
  automationId: string;
  debounceKey: string;
  windowNo: number;
}

export interface InboxEvent {
  automationId: string;
  debounceKey: string;
  payload: Record<string, unknown>;
  /** Set for a debounced event: the window it joined. */
  windowNo?: number;
  /** Set for an event that started its own run. */
  executionId?: string;
}

/** What closing a window needs to know about its events. */
export interface WindowStats {
  count: number;
  lastEventAt: Date | null;
  /** Until the quiet period after the newest event ends, on the database's clock (≤ 0: over). */
  remainingMs: number;
}

/** A window whose workflow start was never confirmed. */
export interface UnstartedWindow {
  automation_id: string;
  debounce_key: string;
  window_no: number;
  /** Null when the automation was deleted meanwhile. */
  organization_id: string | null;
  debounce_seconds: number | null;
}

export interface UnstartedExecution {
  id: string;
  automation_id: string;
  organization_id: string;
}

const columns = (w: WindowKey) => ({ automation_id: w.automationId, debounce_key: w.debounceKey, window_no: w.windowNo });

/** A delivery to remember: its provider (or `custom:<automation id>`), its id, and the fingerprint of its request. */
export interface DeliveryMark {
  provider: string;
  id: string;
  fingerprint?: string;
}

export function createAutomationInboxRepository(db: Knex) {
  const olderThan = (trx: Knex, ms: number) => trx.raw('clock_timestamp() - make_interval(secs => ?)', [ms / 1000]);

  return {
    async recordEvent(event: InboxEvent, trx: Knex = db): Promise<void> {
      const row: Record<string, unknown> = { automation_id: event.automationId, debounce_key: event.debounceKey };
      if (event.windowNo !== undefined) row.window_no = event.windowNo;
      if (event.executionId !== undefined) row.execution_id = event.executionId;
      row.payload = JSON.stringify(event.payload);
      await trx('automation_events').insert(row);
    },

    /** The key's open window, under a shared lock (joiners run concurrently; the closer waits for them). */
    async lockOpenWindow(automationId: string, debounceKey: string, trx: Knex): Promise<number | null> {
      const open = await trx('automation_debounce_windows').where({ automation_id: automationId, debounce_key: debounceKey, state: 'open' }).forShare().first('window_no');
      return open ? (open.window_no as number) : null;
    },

    /** The key's highest window number so far (0 before the first). */
    async lastWindowNo(automationId: string, debounceKey: string, trx: Knex = db): Promise<number> {
      const last = await trx('automation_debounce_windows')
        .where({ automation_id: automationId, debounce_key: debounceKey })
        .max<{ max: number | null }>('window_no as max')
        .first();
      return Number(last?.max ?? 0);
    },

    /** Opens a window; a concurrent opener of the same key makes this fail with a unique violation. */
    async openWindow(window: WindowKey, trx: Knex = db): Promise<void> {
      await trx('automation_debounce_windows').insert(columns(window));
    },

    async markWindowStarted(window: WindowKey, trx: Knex = db): Promise<void> {
      await trx('automation_debounce_windows').where(columns(window)).update({ workflow_started_at: trx.fn.now() });
    },

    /**
     * The common case of a burst, in one statement and one round trip: a single event joining
     * an open window (with the same locks as the transactional path), its delivery id recorded
     * only when the event is. Null when it does not apply (no open window, debounce off, a
     * disabled or gone automation, a repeated delivery id: the delivery insert then fails the
     * whole statement).
     */
    async joinOpenWindow(
      event: { automationId: string; debounceKey: string; payload: Record<string, unknown> },
      delivery?: DeliveryMark,
      trx: Knex = db,
    ): Promise<number | null> {
      try {
        const { rows } = await trx.raw(
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
             INSERT INTO code_hosting_deliveries (provider, delivery_id, fingerprint)
             SELECT :provider, :deliveryId, :fingerprint FROM ev WHERE :deliveryId::text IS NOT NULL
             RETURNING 1
           )
           SELECT window_no FROM ev`,
          {
            automationId: event.automationId,
            key: event.debounceKey,
            payload: JSON.stringify(event.payload),
            provider: delivery?.provider ?? '',
            deliveryId: delivery?.id ?? null,
            fingerprint: delivery?.fingerprint ?? null,
          },
        );
        return rows.length ? (rows[0].window_no as number) : null;
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    /**
     * Remembers a delivery id (with its request's fingerprint, if any): `new`, or `duplicate`
     * when it was already remembered with the same fingerprint (or without one), or `mismatch`
     * when the id was remembered for a different request.
     */
    async recordDelivery(delivery: DeliveryMark, trx: Knex = db): Promise<'new' | 'duplicate' | 'mismatch'> {
      const fingerprint = delivery.fingerprint ?? null;
      const inserted = await trx('code_hosting_deliveries')
        .insert({ provider: delivery.provider, delivery_id: delivery.id, fingerprint })
        .onConflict(['provider', 'delivery_id'])
        .ignore()
        .returning('delivery_id');
      if (inserted.length > 0) return 'new';
      const seen = await trx('code_hosting_deliveries').where({ provider: delivery.provider, delivery_id: delivery.id }).first('fingerprint');
      return seen && fingerprint !== null && seen.fingerprint !== null && seen.fingerprint !== fingerprint ? 'mismatch' : 'duplicate';
    },

    /**
     * Remembers a signed body (its SHA-256) with the delivery id it came with, unless the same
     * body was seen within `days`: then answers the delivery id it was first seen with. A body
     * seen longer ago than that is remembered anew.
     */
    async recordDeliveryBody(
      provider: string,
      bodySha256: string,
      deliveryId: string | null,
      days: number,
      trx: Knex = db,
    ): Promise<{ first: true } | { first: false; deliveryId: string | null }> {
      const { rows } = await trx.raw(
        `INSERT INTO code_hosting_delivery_bodies AS b (provider, body_sha256, delivery_id) VALUES (?, ?, ?)
         ON CONFLICT (provider, body_sha256) DO UPDATE SET delivery_id = EXCLUDED.delivery_id, received_at = now()
           WHERE b.received_at < now() - make_interval(days => ?)
         RETURNING 1`,
        [provider, bodySha256, deliveryId, days],
      );
      if (rows.length > 0) return { first: true };
      const seen = await trx('code_hosting_delivery_bodies').where({ provider, body_sha256: bodySha256 }).first('delivery_id');
      // Pruned in between: as good as new.
      return seen ? { first: false, deliveryId: seen.delivery_id } : { first: true };
    },

    /** Forgets delivery ids and bodies older than `days`; returns how many. */
    async pruneDeliveries(days: number, trx: Knex = db): Promise<number> {
      const before = trx.raw(`now() - make_interval(days => ?)`, [days]);
      const ids = await trx('code_hosting_deliveries').where('received_at', '<', before).delete();
      return ids + (await trx('code_hosting_delivery_bodies').where('received_at', '<', before).delete());
    },

    /** Open windows never marked started, opened more than `olderThanMs` ago, oldest first. */
    async unstartedWindows(olderThanMs: number, limit: number, trx: Knex = db): Promise<UnstartedWindow[]> {
      return trx('automation_debounce_windows as w')
        .leftJoin('automations as a', 'a.id', 'w.automation_id')
        .where('w.state', 'open')
        .whereNull('w.workflow_started_at')
        .where('w.opened_at', '<', olderThan(trx, olderThanMs))
        .orderBy('w.opened_at')
        .limit(limit)
        .select('w.automation_id', 'w.debounce_key', 'w.window_no', 'a.organization_id', 'a.debounce_seconds');
    },

    /** Executions still `pending` more than `olderThanMs` after they were triggered, oldest first. */
    async unstartedExecutions(olderThanMs: number, limit: number, trx: Knex = db): Promise<UnstartedExecution[]> {
      return trx('automation_executions')
        .where('status', 'pending')
        .where('triggered_at', '<', olderThan(trx, olderThanMs))
        .orderBy('triggered_at')
        .limit(limit)
        .select('id', 'automation_id', 'organization_id');
    },

    async openWindowsOf(automationId: string, trx: Knex = db): Promise<Array<{ debounceKey: string; windowNo: number }>> {
      const rows = await trx('automation_debounce_windows').where({ automation_id: automationId, state: 'open' }).select('debounce_key', 'window_no');
      return rows.map((w) => ({ debounceKey: w.debounce_key as string, windowNo: w.window_no as number }));
    },

    /** The window under an exclusive lock, which waits for every event still joining it. */
    async lockWindow(window: WindowKey, trx: Knex): Promise<{ state: 'open' | 'closed'; executionId: string | null } | null> {
      const row = await trx('automation_debounce_windows').where(columns(window)).forUpdate().first('state', 'execution_id');
      return row ? { state: row.state, executionId: row.execution_id ?? null } : null;
    },

    async windowStats(window: WindowKey, debounceSeconds: number, trx: Knex = db): Promise<WindowStats> {
      const stats = await trx('automation_events')
        .where(columns(window))
        .first(
          trx.raw('count(*)::int as count'),
          trx.raw('max(received_at) as last_event_at'),
          // On the database's clock: the one that stamped the events.
          trx.raw('extract(epoch from (max(received_at) + make_interval(secs => ?) - clock_timestamp())) * 1000 as remaining_ms', [debounceSeconds]),
        );
      return { count: stats?.count ?? 0, lastEventAt: stats?.last_event_at ?? null, remainingMs: Math.ceil(Number(stats?.remaining_ms ?? 0)) };
    },

    /** The payload of the window's newest event (null without events). */
    async latestPayload(window: WindowKey, trx: Knex = db): Promise<unknown> {
      const latest = await trx('automation_events').where(columns(window)).orderBy('id', 'desc').first('payload');
      return latest?.payload ?? null;
    },

    /** Closes the window, recording what it held and the execution it started (if any). */
    async closeWindow(window: WindowKey, closed: { stats: WindowStats; executionId?: string }, trx: Knex = db): Promise<void> {
      const update: Record<string, unknown> = {
        state: 'closed',
        closed_at: trx.raw('clock_timestamp()'),
        last_event_at: closed.stats.lastEventAt,
        event_count: closed.stats.count,
      };
      if (closed.executionId !== undefined) update.execution_id = closed.executionId;
      await trx('automation_debounce_windows').where(columns(window)).update(update);
    },

    /** Deletes the window and its events. */
    async deleteWindow(window: WindowKey, trx: Knex = db): Promise<void> {
      await trx('automation_events').where(columns(window)).delete();
      await trx('automation_debounce_windows').where(columns(window)).delete();
    },
  };
}

export type AutomationInboxRepository = ReturnType<typeof createAutomationInboxRepository>;
