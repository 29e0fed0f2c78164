/** A small HTTP client for tests: JSON in, `{status, body, headers}` out. */
import { harness } from './harness';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function request<T = any>(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; signal?: AbortSignal; /** Another API process than the harness's. */ base?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch((options.base ?? harness().baseUrl) + path, { method, headers, body, signal: options.signal });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Binds a key: `const api = as(org.org_api_key); await api.get('/v1/environments')`. */
export function as(key: string) {
  return {
    get: <T = any>(path: string) => request<T>('GET', path, { key }),
    post: <T = any>(path: string, body?: unknown) => request<T>('POST', path, { key, body }),
    put: <T = any>(path: string, body?: unknown) => request<T>('PUT', path, { key, body }),
    patch: <T = any>(path: string, body?: unknown) => request<T>('PATCH', path, { key, body }),
    delete: <T = any>(path: string) => request<T>('DELETE', path, { key }),
  };
}

/** Asserts the spec's Error body shape and returns it. */
export function errorOf(answer: Answer): { error: string; details: string | null } {
  const b = answer.body as { error?: unknown; details?: unknown };
  if (typeof b !== 'object' || b === null || typeof b.error !== 'string' || !('details' in b)) {
    throw new Error(`expected an Error body, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return b as { error: string; details: string | null };
}

let counter = 0;
export async function newOrg(name = 'test') {
  return harness().admin.createOrganization({ name: `${name}-${++counter}`, adminEmail: `admin${counter}@example.com` });
}
