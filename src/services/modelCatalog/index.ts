/**
 * The model catalog (seed endpoint 1) and the models an organization enables.
 *
 * Each catalog is the live list of its provider, fetched with the organization's key for an
 * agent that uses it, and the built-in list when the organization has no such key or no
 * provider URL is configured. Lists are cached per organization and catalog (never per key:
 * the cache key holds no secret), refreshed in the background once older than the TTL. When
 * the provider fails, the last good list fetched with the same key is served, else the
 * built-in one; a request never fails because a provider did.
 */
import { createHash } from 'node:crypto';
import { AGENTS, type AgentId, type ModelSource } from '../../agents/catalog';
import type { Config } from '../../config';
import type { Repositories } from '../../db';
import { invalid, forbidden } from '../../domain/errors';
import type { Logger } from '../../logger';
import type { Actor } from '../../domain/actor';
import { BUILTIN_MODELS, type CatalogModel } from '../../agents/builtinModels';
import { allowedModelIds, isModelAllowed } from '../../domain/agentPolicy';
import type { CatalogQuery } from '../../schemas/models';
import { createSwrCache, type Loaded } from './cache';
import { createProviderClient, type ProviderClient } from './providers';
import { indexCatalog, pageOf, type IndexedCatalog } from './search';

export { BUILTIN_MODELS, type CatalogModel } from '../../agents/builtinModels';

export const MODEL_SOURCES: readonly ModelSource[] = ['source_a', 'source_b'];

/** Whose organization credential opens each catalog, in order of preference. */
const SOURCE_AGENTS: Record<ModelSource, readonly AgentId[]> = { source_a: ['agent_3'], source_b: ['agent_4', 'agent_5'] };

/** A failed provider is asked again after this long (or the TTL, if shorter). */
const FAILURE_RETRY_MS = 30_000;
const MAX_CACHED_CATALOGS = 10_000;
/** Recent pages kept per catalog list (clients page through a few searches at a time). */
const PAGES_PER_CATALOG = 64;

/** The query's own type, derived from its schema (src/schemas/models.ts). */
export type { CatalogQuery };

export interface CatalogPage {
  readonly source: ModelSource;
  readonly models: readonly CatalogModel[];
  readonly page: number;
  readonly total: number;
  readonly limit: number;
  readonly totalPages: number;
}

interface CatalogState {
  catalog: IndexedCatalog;
  origin: 'builtin' | 'live' | 'last_good';
  /** Of the key the list was fetched with; null for the built-in list. */
  fingerprint: string | null;
  lastGood: IndexedCatalog | null;
}

const BUILTIN: Record<ModelSource, IndexedCatalog> = {
  source_a: indexCatalog(BUILTIN_MODELS.source_a),
  source_b: indexCatalog(BUILTIN_MODELS.source_b),
};

const fingerprintOf = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 16);

export function createModelCatalogService(deps: {
  repos: Pick<Repositories, 'transact' | 'modelCatalog'>;
  config: Config;
  logger: Logger;
  /** The organization's credential for the agent whose provider serves a catalog. */
  organizationSecret: (organizationId: string, agent: AgentId) => Promise<string | null>;
}) {
  const { config, logger } = deps;
  const { transact, modelCatalog: repo } = deps.repos;
  const baseUrls: Record<ModelSource, string | undefined> = { source_a: config.sourceABaseUrl, source_b: config.sourceBBaseUrl };
  const providers = {} as Record<ModelSource, ProviderClient | null>;
  for (const source of MODEL_SOURCES) {
    const baseUrl = baseUrls[source];
    providers[source] = baseUrl ? createProviderClient(source, { baseUrl, timeoutMs: config.modelProviderTimeoutMs }) : null;
  }
  const ttlMs = config.modelCatalogTtlMs;
  const failureRetryMs = Math.min(ttlMs, FAILURE_RETRY_MS);

  async function secretFor(organizationId: string, source: ModelSource): Promise<string | null> {
    for (const agent of SOURCE_AGENTS[source]) {
      const secret = await deps.organizationSecret(organizationId, agent);
      if (secret) return secret;
    }
    return null;
  }

  async function lastGoodFromStore(organizationId: string, source: ModelSource, fingerprint: string): Promise<IndexedCatalog | null> {
    try {
      const models = await repo.findSnapshot(organizationId, source, fingerprint);
      return models ? indexCatalog(models) : null;
    } catch (err) {
      logger.warn('could not read the last good model catalog', { organizationId, source, reason: (err as Error).message });
      return null;
    }
  }

  /** Never rejects: every failure ends in a list to serve. */
  async function load(organizationId: string, source: ModelSource, previous: CatalogState | undefined): Promise<Loaded<CatalogState>> {
    const builtin: Loaded<CatalogState> = {
      value: { catalog: BUILTIN[source], origin: 'builtin', fingerprint: null, lastGood: null },
      ttlMs,
    };
    const provider = providers[source];
    if (!provider) return builtin;
    let secret: string | null;
    try {
      secret = await secretFor(organizationId, source);
    } catch (err) {
      logger.warn('could not read the organization credential for the model catalog', { organizationId, source, reason: (err as Error).message });
      return { value: previous ?? builtin.value, ttlMs: failureRetryMs };
    }
    if (!secret) return builtin;

    const fingerprint = fingerprintOf(secret);
    try {
      const catalog = indexCatalog(await provider.fetchModels(secret));
      repo.saveSnapshot(organizationId, source, fingerprint, catalog.models).catch((err: unknown) => {
        logger.warn('could not store the model catalog snapshot', { organizationId, source, reason: (err as Error).message });
      });
      return { value: { catalog, origin: 'live', fingerprint, lastGood: catalog }, ttlMs };
    } catch (err) {
      const lastGood =
        (previous?.fingerprint === fingerprint ? previous.lastGood : null) ?? (await lastGoodFromStore(organizationId, source, fingerprint));
      logger.warn('model provider failed; serving a fallback list', {
        organizationId,
        source,
        reason: (err as Error).message,
        fallback: lastGood ? 'last_good' : 'builtin',
      });
      return {
        value: { catalog: lastGood ?? BUILTIN[source], origin: lastGood ? 'last_good' : 'builtin', fingerprint, lastGood },
        ttlMs: failureRetryMs,
      };
    }
  }

  const cache = createSwrCache<CatalogState>({
    maxEntries: MAX_CACHED_CATALOGS,
    load: (key, previous) => {
      const [organizationId, source] = key.split('/') as [string, ModelSource];
      return load(organizationId, source, previous);
    },
    onBackgroundError: (key, err) => logger.error('model catalog refresh failed', { key, err: err as Error }),
  });

  const catalogOf = async (organizationId: string, source: ModelSource) => (await cache.get(`${organizationId}/${source}`)).catalog;
  /** Pages answered from each catalog list; dropped with the list when a newer one replaces it. */
  const pages = new WeakMap<IndexedCatalog, Map<string, CatalogPage>>();

  async function enabledModels(organizationId: string): Promise<Record<ModelSource, string[]>> {
    const out: Record<ModelSource, string[]> = { source_a: [], source_b: [] };
    for (const row of await repo.enabledIds(organizationId)) out[row.source].push(row.model_id);
    return out;
  }

  return {
    /**
     * One page of a catalog, searched. The same object (frozen) answers the same question for
     * as long as the catalog list it came from is served, so the API serialises it once.
     */
    async list(actor: Actor, input: CatalogQuery): Promise<CatalogPage> {
      const catalog = await catalogOf(actor.organizationId, input.source);
      let memo = pages.get(catalog);
      if (!memo) pages.set(catalog, (memo = new Map()));
      const key = `${input.source}/${input.page}/${input.limit}/${input.query ?? ''}`;
      const held = memo.get(key);
      if (held) {
        // Most recently used last, so the oldest question goes first.
        memo.delete(key);
        memo.set(key, held);
        return held;
      }
      const { items, total, totalPages } = pageOf(catalog.search(input.query ?? ''), input.page, input.limit);
      const page: CatalogPage = Object.freeze({ source: input.source, models: Object.freeze(items), page: input.page, total, limit: input.limit, totalPages });
      if (memo.size >= PAGES_PER_CATALOG) memo.delete(memo.keys().next().value!);
      memo.set(key, page);
      return page;
    },

    /** The whole current catalog for an organization (live, last good or built-in). */
    async catalog(organizationId: string, source: ModelSource): Promise<readonly CatalogModel[]> {
      return (await catalogOf(organizationId, source)).models;
    },

    enabledModels: (actor: Actor) => enabledModels(actor.organizationId),

    /** Replaces the enabled ids of one catalog; an empty list returns to the default. */
    async setEnabledModels(actor: Actor, input: { source: ModelSource; model_ids: string[] }) {
      if (!actor.isAdmin) throw forbidden('Only organization admins can enable models');
      const catalog = await catalogOf(actor.organizationId, input.source);
      const unknown = input.model_ids.filter((id) => !catalog.ids.has(id));
      if (unknown.length > 0) {
        const named = unknown.slice(0, 20).map((id) => JSON.stringify(id)).join(', ');
        const more = unknown.length > 20 ? ` and ${unknown.length - 20} more` : '';
        throw invalid('Invalid body', `body.model_ids: not in the ${input.source} catalog: ${named}${more}`);
      }
      await transact((trx) => repo.replaceEnabled(actor.organizationId, input.source, input.model_ids, trx));
      return enabledModels(actor.organizationId);
    },

    /**
     * Whether a workspace or automation may use `modelId` with `agent`. agent_3: only the
     * enabled source_a ids, or the built-in list while none are enabled. agent_4/agent_5:
     * the enabled source_b ids once an admin enabled some, anything before. Agents without
     * a catalog: any model (their own compatibility rules apply elsewhere).
     */
    async isModelAllowed(organizationId: string, agent: AgentId, modelId: string): Promise<boolean> {
      const source = AGENTS[agent].modelSource;
      return isModelAllowed(agent, modelId, source ? await repo.isEnabled(organizationId, source, modelId) : null);
    },

    /**
     * `isModelAllowed` as a set, for the AI gateway: the ids the organization allows for
     * `agent`, or null when it allows any (then nothing is looked up).
     */
    async allowedModels(organizationId: string, agent: AgentId): Promise<ReadonlySet<string> | null> {
      const source = AGENTS[agent].modelSource;
      if (!source) return null;
      const enabled = await repo.enabledIds(organizationId, source);
      return allowedModelIds(agent, enabled.map((row) => row.model_id));
    },

    /** Drops an organization's cached lists, e.g. after its credentials change. */
    invalidate(organizationId: string) {
      for (const source of MODEL_SOURCES) cache.delete(`${organizationId}/${source}`);
    },
  };
}

export type ModelCatalogService = ReturnType<typeof createModelCatalogService>;
