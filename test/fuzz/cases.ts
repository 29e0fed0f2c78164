/**
 * Requests built from one OpenAPI operation: a valid-ish one from its schemas, and bad ones
 * that change one thing (a body field, the body's shape or bytes, a path or query parameter,
 * the method, the credentials, a header, the HTTP framing), plus cross-organization requests
 * that must not succeed. Operations that start containers or runs only get requests that are
 * refused before any work starts.
 */
import fc from 'fast-check';
import { fillPath, kindOf, type JsonSchema, type Operation, type Param } from './openapi';
import { badDates, badSegments, badUuids, contentTypes, malformedBodies, nastyStrings, rawRequests, UNKNOWN_METHODS } from './catalog';
import { allIds, badValue, RawJson, serialize, surelyInvalid, typesOf, validValue, type IdPools } from './values';

export interface FuzzRequest {
  op: string;
  /** What was changed: `valid`, `body.field body.name`, `param id`, `auth`… */
  kind: string;
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Bytes written to a socket as they are (request line, headers and body). */
  raw?: string;
  /**
   * Another organization's ids with this organization's key, or the other way round: the same
   * request with random ids in their place, whose answer it must match (a record of another
   * organization is indistinguishable from one that does not exist).
   */
  twin?: FuzzRequest;
  /** Another organization's records in the path: any success is a failure. */
  mustNotSucceed?: boolean;
}

export interface Keys {
  /** The fuzzing organization's key. */
  own: string;
  /** A member's personal key in the fuzzing organization (personal routes refuse organization keys). */
  ownPersonal: string;
  /** A workspace's engine credentials in the fuzzing organization, for operations that take them. */
  ownEngine: { workspaceId: string; secret: string };
  /** Another organization's key (its ids are the `other` pools). */
  other: string;
}

/**
 * Operations that start workspaces, sandboxes or runs, each with why. They get no valid-ish
 * request, their path ids are random, and their bodies are surely invalid.
 */
export const EXPENSIVE: Record<string, string> = {
  createReplica: 'starts a workspace container',
  triggerAutomation: 'starts an automation run (a workspace)',
  createAutomation: 'a schedule trigger would start runs',
  updateAutomation: 'a schedule trigger would start runs',
  testWarmHook: 'runs a sandbox container',
  saveAndTestWarmHook: 'runs a sandbox container',
  testStartHook: 'runs a sandbox container',
  saveAndTestStartHook: 'runs a sandbox container',
  streamStartHookTest: 'runs a sandbox container',
  setWarmPool: 'starts warm-pool workspaces',
  createTerminalSession: 'opens a shell in a container',
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const HAS_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A query-string value: scalars as text, arrays as repeated parameters. */
function queryPairs(name: string, value: unknown): Array<[string, string]> {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => queryPairs(name, v));
  if (value instanceof RawJson) return [[name, value.text]];
  return [[name, typeof value === 'string' ? value : JSON.stringify(value)]];
}

/**
 * `encodeURIComponent`, but a lone surrogate (which it refuses) becomes the percent-encoded
 * bytes of its WTF-8 form, so such strings still reach the server.
 */
export function encode(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(ch);
  });
}

const encodeQuery = (pairs: Array<[string, string]>, raw = false) =>
  pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => (raw ? `${k}=${v}` : `${encode(k)}=${encode(v)}`)).join('&')}`;

interface Base {
  /** Whose credentials: the organization's key, a member's personal key, or a workspace's engine secret. */
  caller: 'org' | 'personal' | 'engine';
  pathValues: Record<string, string>;
  query: Array<[string, string]>;
  body: unknown;
}

export function operationCases(op: Operation, pools: IdPools, keys: Keys): fc.Arbitrary<FuzzRequest> {
  const expensive = op.id in EXPENSIVE;
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const takesBody = HAS_BODY.has(op.method);

  const pathValue = (p: Param, source: 'own' | 'other' | 'random'): fc.Arbitrary<string> => {
    const kind = kindOf(op.template, p.name);
    if (p.name === 'path' && p.schema.type === 'string' && !p.schema.format) return fc.constantFrom('v1/messages', 'chat/completions', 'v1/models', 'responses', 'x/../../admin', '');
    const isUuid = typesOf(p.schema).has('string') && (p.schema.format === 'uuid' || (p.schema.anyOf ?? []).some((s: JsonSchema) => s.format === 'uuid'));
    if (isUuid && (source === 'random' || expensive)) return fc.uuid();
    if (isUuid && source === 'other') {
      const ids = pools.other.get(kind) ?? [];
      if (ids.length > 0) return fc.constantFrom(...ids);
    }
    // Deleting the fuzzer's own records would leave later requests nothing to reach.
    const ownOnly = { pools: op.method === 'DELETE' ? { own: new Map(), other: new Map() } : pools, kind, ownOnly: true };
    return validValue(p.schema, ownOnly).map((v) => encode(String(v)));
  };

  const base = (source: 'own' | 'other' | 'random'): fc.Arbitrary<Base> =>
    fc.record({
      caller: op.auth === 'engine' ? fc.constantFrom('org', 'personal', 'engine') : fc.constantFrom('org', 'personal'),
      pathValues: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p, source)]))) as fc.Arbitrary<Record<string, string>>,
      query: fc
        .tuple(
          ...queryParams.map((p) =>
            (p.required ? validValue(p.schema, { pools, kind: p.name }) : fc.option(validValue(p.schema, { pools, kind: p.name }), { nil: undefined })).map((v) => queryPairs(p.name, v)),
          ),
        )
        .map((lists) => lists.flat()),
      body: op.body
        ? expensive
          ? fc.constant({})
          : validValue(op.body, { pools, kind: op.id })
        : takesBody && op.auth === 'none'
          ? fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined })
          : fc.constant(undefined),
    });

  const poolIds = new Set([...allIds(pools.own), ...allIds(pools.other)]);
  /** The request again with every record id in its path replaced by a random one. */
  const withTwin = (req: FuzzRequest, b: Base, randomIds: string[]): FuzzRequest => {
    const pathValues = Object.fromEntries(Object.entries(b.pathValues).map(([k, v], i) => [k, poolIds.has(v) ? randomIds[i % randomIds.length]! : v]));
    return { ...req, mustNotSucceed: true, twin: { ...req, kind: `${req.kind} (twin)`, path: fillPath(op.template, pathValues) + encodeQuery(b.query) } };
  };
  const otherIds = allIds(pools.other);
  /** The same shape as an id, naming nothing. */
  const missing = (id: string) => `00000000-0000-4000-8000-${id.slice(24)}`;
  /**
   * A read naming another organization's records in its query gets a twin naming nothing in
   * their place. Writes do not: a client-chosen id the first request created would make the
   * twin's answer differ for a reason of its own.
   */
  const withAnyTwin = (req: FuzzRequest): FuzzRequest => {
    if (req.method !== 'GET') return req;
    const swap = (text: string) => otherIds.reduce((t, id) => t.split(id).join(missing(id)), text);
    const body = typeof req.body === 'string' ? swap(req.body) : req.body;
    const path = swap(req.path);
    return path === req.path && body === req.body ? req : { ...req, twin: { ...req, kind: `${req.kind} (twin)`, path, ...(body === undefined ? {} : { body }) } };
  };

  const request = (kind: string, b: Base, changes: Partial<FuzzRequest> & { rawQuery?: boolean } = {}): FuzzRequest => {
    const { rawQuery, ...rest } = changes;
    const credentials: Record<typeof b.caller, Record<string, string>> = {
      org: { authorization: `Bearer ${keys.own}` },
      personal: { authorization: `Bearer ${keys.ownPersonal}` },
      engine: { authorization: `Bearer ${keys.ownEngine.secret}`, 'x-workspace-id': keys.ownEngine.workspaceId },
    };
    const headers: Record<string, string> = op.auth === 'none' ? {} : { ...credentials[b.caller] };
    if (b.body !== undefined) headers['content-type'] = 'application/json';
    return {
      op: op.id,
      kind,
      method: op.method,
      path: fillPath(op.template, b.pathValues) + encodeQuery(b.query, rawQuery),
      headers,
      ...(b.body !== undefined ? { body: serialize(b.body) } : {}),
      ...rest,
      ...(rest.headers ? { headers: { ...headers, ...rest.headers } } : {}),
    };
  };

  const kinds: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzRequest> }> = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<FuzzRequest>) => kinds.push({ weight, arbitrary });

  if (!expensive) add(6, base('own').map((b) => withAnyTwin(request('valid', b))));

  if (op.body) {
    const bodyBase = expensive ? validValue(op.body, { pools, kind: op.id, ownOnly: true }) : base('own').map((b) => b.body);
    add(
      8,
      fc.tuple(base('random'), bodyBase, fc.nat(), fc.nat(), badValue(pools)).map(([b, body, at, pick, bad]) => {
        const targets = fieldPaths(body, op.body!);
        if (targets.length === 0) return request('body.whole', { ...b, body: bad });
        const target = targets[at % targets.length]!;
        const replacement = expensive ? pickFrom(surelyInvalid(target.schema), pick) : bad;
        return request(`body.field ${target.path.join('.') || '(root)'}`, { ...b, body: replaceAt(body, target.path, replacement) });
      }),
    );
    add(
      4,
      fc.tuple(base('random'), fc.nat(), fc.constantFrom('missing', 'unknown', 'nonObject')).map(([b, at, how]) => {
        const body = (expensive ? {} : b.body) as Record<string, unknown>;
        const required: string[] = op.body!.required ?? [];
        if (how === 'missing' && required.length > 0 && body && typeof body === 'object') {
          const name = required[at % required.length]!;
          const { [name]: _dropped, ...rest } = body;
          return request(`body.missing ${name}`, { ...b, body: rest });
        }
        if (how === 'unknown' && body && typeof body === 'object' && !Array.isArray(body)) return request('body.unknown', { ...b, body: { ...body, ['unknownField' + (at % 3)]: at } });
        return request('body.nonObject', { ...b, body: pickFrom<unknown>([[], 'text', 42, null, [body]], at) });
      }),
    );
  }

  if (takesBody) {
    add(
      4,
      fc.tuple(base('random'), fc.constantFrom(...malformedBodies), fc.constantFrom('json', 'other')).map(([b, text, type]) =>
        request(`body.malformed`, b, { body: text, headers: { 'content-type': type === 'json' ? 'application/json' : 'text/plain' } }),
      ),
    );
    add(
      2,
      fc.tuple(base('own'), fc.constantFrom(...contentTypes, 'gzip', 'none', 'invalid-utf8', 'oversize')).map(([b, variant]) => {
        const body = expensive ? '{}' : serialize(b.body ?? {});
        if (variant === 'gzip') return request('body.encoding', b, { body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
        if (variant === 'none') return request('body.noContentType', b, { body, headers: { 'content-type': '' } });
        if (variant === 'invalid-utf8') return request('body.invalidUtf8', b, { body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')]) });
        if (variant === 'oversize') return request('body.oversize', b, { body: `{"a":"${'x'.repeat(30 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } });
        return request(`body.contentType`, b, { body, headers: { 'content-type': variant } });
      }),
    );
  }

  if (pathParams.length > 0) {
    add(
      6,
      fc.tuple(base('own'), fc.nat(), fc.constantFrom(...badSegments)).map(([b, at, segment]) => {
        const p = pathParams[at % pathParams.length]!;
        return request(`param ${p.name}`, { ...b, pathValues: { ...b.pathValues, [p.name]: segment }, body: expensive ? {} : b.body });
      }),
    );
  }

  add(
    4,
    fc
      .tuple(
        base('random'),
        fc.nat(),
        fc.oneof(
          fc.constantFrom(...nastyStrings, ...badDates, ...badUuids(), 'a'.repeat(5000)),
          fc.constantFrom('-1', '0', '1.5', '1e400', '99999999999999999999', 'true', '[]', '{}', 'null'),
        ),
        fc.constantFrom('declared', 'repeated', 'unknown', 'raw'),
      )
      .map(([b, at, value, how]) => {
        const params = [...queryParams.map((p) => p.name), 'page', 'limit'];
        const name = how === 'unknown' ? pickFrom(['unknown', '__proto__', 'constructor', 'a[b]', ''], at) : params[at % params.length]!;
        const body = expensive ? {} : b.body;
        if (how === 'repeated') return request(`query ${name}[]`, { ...b, body, query: [...b.query, [name, value], [name, value]] });
        if (how === 'raw') return request(`query.raw`, { ...b, body, query: [[name, pickFrom(['%', '%zz', '%00', '%ED%A0%80', '&&&', '=='], at)]] }, { rawQuery: true });
        return request(`query ${name}`, { ...b, body, query: [...b.query.filter(([k]) => k !== name), [name, value]] });
      }),
  );

  add(
    2,
    fc.tuple(base('random'), fc.constantFrom(...UNKNOWN_METHODS, ...METHODS.filter((m) => m !== op.method))).map(([b, method]) =>
      request(`method ${method}`, { ...b, body: expensive || !HAS_BODY.has(method) ? undefined : b.body }, { method }),
    ),
  );

  add(
    4,
    fc
      .tuple(
        base('random'),
        fc.constantFrom(
          null,
          '',
          'Bearer',
          'Bearer ',
          'bearer KEY',
          'Bearer KEY extra',
          'Basic dXNlcjpwYXNz',
          'Bearer hk_live_0000000000',
          `Bearer ${'a'.repeat(8000)}`,
          'Bearer KEY\t',
          'Token KEY',
          'Bearer ENGINE',
        ),
        fc.constantFrom(...badUuids(), undefined, ''),
      )
      .map(([b, auth, workspaceId]) => {
        const headers: Record<string, string> = {};
        if (auth !== null) headers.authorization = auth.replace('KEY', keys.own).replace('ENGINE', 'e'.repeat(64));
        if (auth === 'Bearer ENGINE' && workspaceId !== undefined) headers['x-workspace-id'] = workspaceId;
        const req = request(`auth ${auth === null ? 'none' : auth.slice(0, 14)}`, { ...b, body: expensive ? {} : b.body });
        const { authorization: _own, ...rest } = req.headers;
        return { ...req, headers: { ...rest, ...headers } };
      }),
  );

  add(
    2,
    fc
      .tuple(
        base('own'),
        fc.constantFrom(
          ['x-api-version', 'garbage'],
          ['x-api-version', '1999-01-01'],
          ['x-api-version', '2026-05-17'],
          ['x-api-version', ''],
          ['accept', 'text/event-stream'],
          ['accept', 'application/xml'],
          ['last-event-id', '-1'],
          ['last-event-id', '99999999999999999999'],
          ['last-event-id', 'abc'],
          ['x-request-id', 'x'.repeat(200)],
          ['x-request-id', '../../etc'],
          ['range', 'bytes=garbage'],
          ['range', 'bytes=99999999999-'],
          ['if-none-match', '*'],
          ['origin', 'https://evil.example'],
          ['expect', '100-continue'],
          ['x-forwarded-for', '999.999.999.999, ::ffff:1'],
          ['x-forwarded-proto', 'gopher'],
          ['host', 'a'.repeat(300)],
        ),
      )
      .map(([b, [name, value]]) => request(`header ${name}`, { ...b, body: expensive ? {} : b.body }, { headers: { [name]: value } })),
  );

  if (op.auth !== 'none') {
    const uuidParams = pathParams.filter((p) => p.schema.format === 'uuid' && (pools.other.get(kindOf(op.template, p.name)) ?? []).length > 0);
    if (uuidParams.length > 0) {
      // This organization's key on another's ids (and its own ids on another's key) must be a 404.
      const randomIds = fc.array(fc.uuid(), { minLength: pathParams.length, maxLength: pathParams.length });
      add(6, fc.tuple(base('other'), randomIds).map(([b, ids]) => withTwin(request('crossTenant otherIds', b), b, ids)));
      add(
        2,
        fc.tuple(base('own'), randomIds).map(([b, ids]) => {
          const req = request('crossTenant otherKey', b);
          return withTwin({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys.other}` } }, b, ids);
        }),
      );
    }
  }

  add(
    1,
    fc.tuple(base('random'), fc.nat()).map(([b, at]) => {
      const target = fillPath(op.template, b.pathValues);
      const [label, bytes] = pickFrom(rawRequests(op.method, target, keys.own), at);
      return { ...request(`raw ${label}`, b), raw: bytes };
    }),
  );

  return fc.oneof(...kinds);
}

function pickFrom<T>(items: readonly T[], at: number): T {
  return items[at % items.length]!;
}

/** Every field of a generated body, with the schema that describes it. */
function fieldPaths(value: unknown, schema: JsonSchema, path: Array<string | number> = []): Array<{ path: Array<string | number>; schema: JsonSchema }> {
  const out = [{ path, schema }];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...fieldPaths(item, schema.items ?? {}, [...path, i])));
  else if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    for (const [key, item] of Object.entries(value)) out.push(...fieldPaths(item, schema.properties?.[key] ?? {}, [...path, key]));
  }
  return out;
}

function replaceAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaceAt(item, rest, replacement) : item));
  const record = value as Record<string, unknown>;
  return { ...record, [head!]: replaceAt(record[head!], rest, replacement) };
}
