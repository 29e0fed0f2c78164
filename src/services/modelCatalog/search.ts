/**
 * A catalog list prepared for the hot path: lower-cased search fields computed once per
 * fetched list, an id set for membership checks, and a small memo of recent queries (clients
 * page through the same search).
 */
import type { CatalogModel } from '../../agents/builtinModels';

export interface IndexedCatalog {
  readonly models: readonly CatalogModel[];
  readonly ids: ReadonlySet<string>;
  /** Case-insensitive substring match on id, displayName and description; '' matches all. */
  search(query: string): readonly CatalogModel[];
}

const MEMO_SIZE = 64;

export function indexCatalog(models: readonly CatalogModel[]): IndexedCatalog {
  const fields = models.map((m) => [m.id.toLowerCase(), m.displayName.toLowerCase(), (m.description ?? '').toLowerCase()]);
  const memo = new Map<string, readonly CatalogModel[]>();
  return {
    models,
    ids: new Set(models.map((m) => m.id)),
    search(query) {
      const needle = query.toLowerCase();
      if (needle === '') return models;
      const hit = memo.get(needle);
      if (hit) return hit;
      const found = models.filter((_, i) => fields[i]!.some((field) => field.includes(needle)));
      if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
      memo.set(needle, found);
      return found;
    },
  };
}

export function pageOf<T>(items: readonly T[], page: number, limit: number) {
  const start = (page - 1) * limit;
  return { items: start < items.length ? items.slice(start, start + limit) : [], total: items.length, totalPages: Math.ceil(items.length / limit) };
}
