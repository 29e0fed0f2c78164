/**
 * SQL for re-sealing secrets at rest (`hangar admin rotate-encryption-key`): pages of rows
 * whose sealed columns are not yet in the current form, and compare-and-set writes, so a value
 * the running service rewrote in the meantime is never overwritten with an older one. Table and
 * column names come from the catalogue in src/crypto/sealedFields.ts, never from input.
 */
import type { Knex } from 'knex';

export interface SealedPageQuery {
  table: string;
  /** The sealed columns to look at. */
  columns: readonly string[];
  /** Columns to return besides `id` and the sealed ones (what names the row in its associated data). */
  keyColumns: readonly string[];
  /** A value is current when it starts with this (`v2.<active key id>.`). */
  currentPrefix: string;
  /** Keyset pagination: rows with a larger id only. */
  afterId: string;
  limit: number;
}

export interface CompareAndSet {
  id: string;
  /** The value the row must still hold. */
  from: string;
  to: string;
}

/** Smaller than any uuid: the first page starts after it. */
export const FIRST_ID = '00000000-0000-0000-0000-000000000000';

export function createSealedValuesRepository(db: Knex) {
  /** `(c1 IS NOT NULL AND NOT starts_with(c1, prefix)) OR …` with its bindings. */
  function notCurrent(columns: readonly string[], prefix: string): [string, string[]] {
    const sql = columns.map(() => '(?? IS NOT NULL AND NOT starts_with(??, ?))').join(' OR ');
    return [`(${sql})`, columns.flatMap((c) => [c, c, prefix])];
  }

  return {
    /** The next rows (by id) with at least one sealed value not in the current form. */
    async pageNotCurrent(q: SealedPageQuery, trx: Knex = db): Promise<Array<Record<string, unknown> & { id: string }>> {
      const [where, bindings] = notCurrent(q.columns, q.currentPrefix);
      const select = [...new Set(['id', ...q.keyColumns, ...q.columns])];
      const { rows } = await trx.raw(`SELECT ${select.map(() => '??').join(', ')} FROM ?? WHERE id > ? AND ${where} ORDER BY id LIMIT ?`, [
        ...select,
        q.table,
        q.afterId,
        ...bindings,
        q.limit,
      ]);
      return rows;
    },

    /**
     * Writes each value where the column still holds `from`; `alsoSet` columns are written on
     * the same rows (a credential's `key_id`). Returns the ids written.
     */
    async compareAndSet(table: string, column: string, changes: CompareAndSet[], alsoSet: Record<string, string> = {}, trx: Knex = db): Promise<string[]> {
      if (changes.length === 0) return [];
      const values = changes.map(() => '(?::uuid, ?::text, ?::text)').join(', ');
      const extra = Object.keys(alsoSet);
      const { rows } = await trx.raw(
        `UPDATE ?? AS t SET ?? = v.sealed${extra.map(() => ', ?? = ?').join('')}
           FROM (VALUES ${values}) AS v(id, was, sealed)
          WHERE t.id = v.id AND t.?? = v.was
          RETURNING t.id`,
        [table, column, ...extra.flatMap((c) => [c, alsoSet[c]!]), ...changes.flatMap((c) => [c.id, c.from, c.to]), column],
      );
      return rows.map((r: { id: string }) => r.id);
    },

    /** The next rows (by id) whose keyed hash was made under another key than `activeKeyId`, with the sealed secret it hashes. */
    async pageStaleHashes(
      q: { table: string; column: string; keyIdColumn: string; sourceColumn: string; keyColumns: readonly string[]; activeKeyId: string; afterId: string; limit: number },
      trx: Knex = db,
    ): Promise<Array<Record<string, unknown> & { id: string }>> {
      const select = [...new Set(['id', ...q.keyColumns, q.column, q.sourceColumn])];
      const { rows } = await trx.raw(
        `SELECT ${select.map(() => '??').join(', ')} FROM ?? WHERE id > ? AND ?? IS NOT NULL AND ?? IS DISTINCT FROM ? ORDER BY id LIMIT ?`,
        [...select, q.table, q.afterId, q.column, q.keyIdColumn, q.activeKeyId, q.limit],
      );
      return rows;
    },

    /** Keyed hashes not made under `activeKeyId`, by `hmac.<key id>`. */
    async countStaleHashes(table: string, column: string, keyIdColumn: string, activeKeyId: string, trx: Knex = db): Promise<Record<string, number>> {
      const { rows } = await trx.raw(
        `SELECT 'hmac.' || coalesce(??, 'none') AS form, count(*)::int AS n FROM ?? WHERE ?? IS NOT NULL AND ?? IS DISTINCT FROM ? GROUP BY 1 ORDER BY 1`,
        [keyIdColumn, table, column, keyIdColumn, activeKeyId],
      );
      return Object.fromEntries(rows.map((r: { form: string; n: number }) => [r.form, r.n]));
    },

    /** Values of a column not in the current form, by their `<version>.<key id>` prefix. */
    async countNotCurrent(table: string, column: string, currentPrefix: string, trx: Knex = db): Promise<Record<string, number>> {
      const [where, bindings] = notCurrent([column], currentPrefix);
      const { rows } = await trx.raw(
        `SELECT split_part(??, '.', 1) || '.' || split_part(??, '.', 2) AS form, count(*)::int AS n FROM ?? WHERE ${where} GROUP BY 1 ORDER BY 1`,
        [column, column, table, ...bindings],
      );
      return Object.fromEntries(rows.map((r: { form: string; n: number }) => [r.form, r.n]));
    },
  };
}

export type SealedValuesRepository = ReturnType<typeof createSealedValuesRepository>;
