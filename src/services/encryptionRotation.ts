/**
 * Re-sealing every secret at rest under the active encryption key (`hangar admin
 * rotate-encryption-key`), while the service keeps running.
 *
 * Each sealed table (src/crypto/sealedFields.ts) is walked by id in pages; a page's values not
 * yet in the current form (v2 under the active key) are opened — a v1 value without associated
 * data, a v2 value as the field it is bound to — sealed again as v2 for their field, and written
 * in one transaction per page with compare-and-set on the old value: a value the service changed
 * since the page was read keeps the service's write (counted as `changed_concurrently`, and the
 * next pass looks at it again). Nothing is locked, so the service never waits on the rotation.
 * Re-running finds only what is left; a value that cannot be opened (its key is no longer
 * configured, or it was moved from another row) is reported and left as it is.
 *
 * Keyed hashes of secrets (`LOOKUP_HASH_COLUMNS`: a GitLab connection's webhook token, looked up
 * by its hash) are made under a key derived from an encryption key too: each pass also hashes
 * again, under the active key, every one made under another, from the secret it hashes. They are
 * reported as their own column (`remaining` by `hmac.<key id>`); until they are done, removing
 * the old key would leave those deliveries unmatched.
 */
import { LOOKUP_HASH_COLUMNS, type LookupHashColumn, type LookupHashes } from '../crypto/lookupHashes';
import { rowKeyOf, SEALED_COLUMNS, sealedField, type SealedTable } from '../crypto/sealedFields';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import { FIRST_ID } from '../db/sealedValuesRepository';

export const DEFAULT_ROTATION_BATCH = 500;
/** Passes after the first only chase values the service rewrote during the previous one. */
const MAX_PASSES = 5;
/** Unreadable rows named in the report, per column. */
const MAX_UNREADABLE_IDS = 20;

/** Columns kept beside a sealed column: the agent credential's `key_id` names its secret's key. */
const KEY_ID_COLUMNS: Partial<Record<SealedTable, Record<string, string>>> = {
  agent_credentials: { secret_sealed: 'key_id' },
};

export interface ColumnReport {
  table: SealedTable;
  column: string;
  /** Values re-sealed as v2 under the active key. */
  resealed: number;
  /** Values the running service rewrote between the read and the write; its value was kept. */
  changed_concurrently: number;
  /** Values that could not be opened with the configured keys for their row; left unchanged. */
  unreadable: number;
  unreadable_ids: string[];
  /** Values still not in the current form afterwards (or, in a dry run, now), by `<version>.<key id>`. */
  remaining: Record<string, number>;
}

export interface RotationReport {
  active_key: string;
  dry_run: boolean;
  passes: number;
  columns: ColumnReport[];
  resealed: number;
  remaining: number;
}

export interface RotationOptions {
  batchSize?: number;
  /** Only count what a rotation would re-seal. */
  dryRun?: boolean;
  /** Called with each page's re-sealed values before they are written (tests interleave a write here). */
  beforeWrite?: (table: SealedTable, ids: string[]) => Promise<void>;
}

export function createEncryptionRotation(deps: { repos: Pick<Repositories, 'transact' | 'sealedValues'>; secretBox: SecretBox; lookupHashes: LookupHashes }) {
  const { secretBox, lookupHashes } = deps;
  const { sealedValues } = deps.repos;
  const currentPrefix = `v2.${secretBox.activeKeyId}.`;
  const tables = Object.keys(SEALED_COLUMNS) as SealedTable[];

  function emptyReports(): ColumnReport[] {
    const empty = { resealed: 0, changed_concurrently: 0, unreadable: 0, unreadable_ids: [], remaining: {} };
    return [
      ...tables.flatMap((table) => SEALED_COLUMNS[table].columns.map((column) => ({ table, column, ...empty }))),
      ...LOOKUP_HASH_COLUMNS.map(({ table, column }) => ({ table, column, ...empty })),
    ];
  }

  /** One pass over one keyed-hash column (after the sealed values): `resealed` counts hashes made again. */
  async function rehash(spec: LookupHashColumn, reports: ColumnReport[], options: RotationOptions): Promise<number> {
    const report = reports.find((r) => r.table === spec.table && r.column === spec.column)!;
    const batchSize = options.batchSize ?? DEFAULT_ROTATION_BATCH;
    let changed = 0;
    for (let afterId = FIRST_ID; ; ) {
      const rows = await sealedValues.pageStaleHashes({
        table: spec.table,
        column: spec.column,
        keyIdColumn: spec.keyIdColumn,
        sourceColumn: spec.source.column,
        keyColumns: SEALED_COLUMNS[spec.table].rowKey,
        activeKeyId: lookupHashes.activeKeyId,
        afterId,
        limit: batchSize,
      });
      if (rows.length === 0) return changed;
      afterId = rows[rows.length - 1]!.id;
      const changes: Array<{ id: string; from: string; to: string }> = [];
      for (const row of rows) {
        try {
          const sealed = row[spec.source.column] as string;
          const secret = (JSON.parse(secretBox.open(sealed, sealedField(spec.table, spec.source.column, rowKeyOf(spec.table, row)))) as Record<string, unknown>)[spec.source.field];
          if (typeof secret !== 'string' || !secret) throw new Error('no secret to hash');
          changes.push({ id: row.id, from: row[spec.column] as string, to: lookupHashes.current(spec.purpose, secret).hash });
        } catch {
          report.unreadable++;
          if (report.unreadable_ids.length < MAX_UNREADABLE_IDS) report.unreadable_ids.push(row.id);
        }
      }
      if (changes.length === 0) continue;
      await options.beforeWrite?.(spec.table, changes.map((c) => c.id));
      const written = await sealedValues.compareAndSet(spec.table, spec.column, changes, { [spec.keyIdColumn]: lookupHashes.activeKeyId });
      report.resealed += written.length;
      report.changed_concurrently += changes.length - written.length;
      changed += changes.length - written.length;
    }
  }

  /** One pass over one table; returns how many values the service changed under it. */
  async function passOver(table: SealedTable, reports: ColumnReport[], options: RotationOptions): Promise<number> {
    const { columns, rowKey } = SEALED_COLUMNS[table];
    const report = (column: string) => reports.find((r) => r.table === table && r.column === column)!;
    const batchSize = options.batchSize ?? DEFAULT_ROTATION_BATCH;
    let changed = 0;
    for (let afterId = FIRST_ID; ; ) {
      const rows = await sealedValues.pageNotCurrent({ table, columns, keyColumns: rowKey, currentPrefix, afterId, limit: batchSize });
      if (rows.length === 0) return changed;
      afterId = rows[rows.length - 1]!.id;
      const writes = new Map<string, Array<{ id: string; from: string; to: string }>>();
      for (const row of rows) {
        const key = rowKeyOf(table, row);
        for (const column of columns) {
          const sealed = row[column];
          if (typeof sealed !== 'string' || secretBox.isCurrent(sealed)) continue;
          const field = sealedField(table, column, key);
          let to: string;
          try {
            to = secretBox.seal(secretBox.open(sealed, field), field);
          } catch {
            const r = report(column);
            r.unreadable++;
            if (r.unreadable_ids.length < MAX_UNREADABLE_IDS) r.unreadable_ids.push(row.id);
            continue;
          }
          writes.set(column, [...(writes.get(column) ?? []), { id: row.id, from: sealed, to }]);
        }
      }
      if (writes.size === 0) continue;
      await options.beforeWrite?.(table, [...new Set([...writes.values()].flat().map((w) => w.id))]);
      await deps.repos.transact(async (trx) => {
        for (const [column, changes] of writes) {
          const alsoSet = KEY_ID_COLUMNS[table]?.[column];
          const written = await sealedValues.compareAndSet(table, column, changes, alsoSet ? { [alsoSet]: secretBox.activeKeyId } : {}, trx);
          report(column).resealed += written.length;
          report(column).changed_concurrently += changes.length - written.length;
          changed += changes.length - written.length;
        }
      });
    }
  }

  async function remaining(reports: ColumnReport[]): Promise<void> {
    for (const r of reports) {
      const hashed = LOOKUP_HASH_COLUMNS.find((h) => h.table === r.table && h.column === r.column);
      r.remaining = hashed
        ? await sealedValues.countStaleHashes(hashed.table, hashed.column, hashed.keyIdColumn, lookupHashes.activeKeyId)
        : await sealedValues.countNotCurrent(r.table, r.column, currentPrefix);
    }
  }

  function summary(reports: ColumnReport[], dryRun: boolean, passes: number): RotationReport {
    return {
      active_key: secretBox.activeKeyId,
      dry_run: dryRun,
      passes,
      columns: reports,
      resealed: reports.reduce((n, r) => n + r.resealed, 0),
      remaining: reports.reduce((n, r) => n + Object.values(r.remaining).reduce((a, b) => a + b, 0), 0),
    };
  }

  return {
    async rotate(options: RotationOptions = {}): Promise<RotationReport> {
      const reports = emptyReports();
      if (options.dryRun) {
        await remaining(reports);
        return summary(reports, true, 0);
      }
      let passes = 0;
      for (;;) {
        passes++;
        // Unreadable values are counted once: the last pass's count stands.
        for (const r of reports) Object.assign(r, { unreadable: 0, unreadable_ids: [] });
        let changed = 0;
        for (const table of tables) changed += await passOver(table, reports, options);
        for (const spec of LOOKUP_HASH_COLUMNS) changed += await rehash(spec, reports, options);
        if (changed === 0 || passes >= MAX_PASSES) break;
      }
      await remaining(reports);
      return summary(reports, false, passes);
    },
  };
}

export type EncryptionRotation = ReturnType<typeof createEncryptionRotation>;
