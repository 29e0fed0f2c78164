/**
 * Clients for the two providers' model-list APIs. `source_a` speaks the OpenAI-compatible
 * `GET /v1/models`; `source_b` the model gateway's `GET /api/v1/models`. Both answer
 * `{data: [{id, name?, description?, ...}]}`. Anything else — a timeout, a non-2xx status, a
 * body that is not that shape or lists no usable model — is a ProviderError, which the
 * catalog turns into a fallback. Errors never carry the key or the response body.
 */
import type { ModelSource } from '../../agents/catalog';
import type { CatalogModel } from '../../agents/builtinModels';

export class ProviderError extends Error {
  override name = 'ProviderError';
}

export interface ProviderClient {
  fetchModels(secret: string): Promise<CatalogModel[]>;
}

/** Far above any real catalog (the gateway's is about 1 MB); a bound on what we buffer. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_MODELS = 5000;
const MAX_ID_LENGTH = 200;

const LIST_PATHS: Record<ModelSource, string> = { source_a: '/v1/models', source_b: '/api/v1/models' };

export function createProviderClient(source: ModelSource, options: { baseUrl: string; timeoutMs: number }): ProviderClient {
  const url = options.baseUrl.replace(/\/+$/, '') + LIST_PATHS[source];
  return {
    async fetchModels(secret) {
      return parseModelList(await getJson(url, secret, options.timeoutMs));
    },
  };
}

async function getJson(url: string, secret: string, timeoutMs: number): Promise<unknown> {
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    // No redirects: a redirect elsewhere must not receive the key.
    res = await fetch(url, { headers: { authorization: `Bearer ${secret}`, accept: 'application/json' }, redirect: 'error', signal });
  } catch (err) {
    throw new ProviderError(signal.aborted ? `no answer within ${timeoutMs} ms` : `request failed: ${describeCause(err)}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new ProviderError(`answered HTTP ${res.status}`);
  }
  let text: string;
  try {
    text = await readCapped(res);
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    throw new ProviderError(signal.aborted ? `no complete answer within ${timeoutMs} ms` : 'the answer was cut off');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError('the answer is not JSON');
  }
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new ProviderError(`the answer exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeCause(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message : 'unknown error';
}

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * `{data: [...]}` with at least one entry that has a string id. Entries without one are
 * skipped rather than failing the whole list; a list with no usable entry is a failure, so an
 * empty or garbled answer never replaces a good catalog.
 */
export function parseModelList(body: unknown): CatalogModel[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (typeof body !== 'object' || body === null || !Array.isArray(data)) throw new ProviderError('the answer has no "data" array');
  const seen = new Set<string>();
  const models: CatalogModel[] = [];
  for (const item of data) {
    if (typeof item !== 'object' || item === null) continue;
    const entry = item as { id?: unknown; name?: unknown; description?: unknown };
    if (typeof entry.id !== 'string' || entry.id === '' || entry.id.length > MAX_ID_LENGTH || seen.has(entry.id)) continue;
    seen.add(entry.id);
    const description = optionalText(entry.description);
    models.push({ id: entry.id, displayName: optionalText(entry.name) ?? entry.id, ...(description ? { description } : {}) });
    if (models.length === MAX_MODELS) break;
  }
  if (models.length === 0) throw new ProviderError('the answer lists no usable model');
  return models;
}
