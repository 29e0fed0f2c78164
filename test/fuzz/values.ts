/**
 * Values for the fuzzer: valid-ish ones built from a JSON Schema with fast-check (so most
 * requests get past validation into the handlers), and bad ones for any field (wrong types,
 * the catalogues' strings, UUIDs and dates, huge and deep values). Deep values are kept as raw
 * JSON text and spliced in when the body is serialised, since `JSON.stringify` itself overflows
 * on them.
 */
import fc from 'fast-check';
import { badDates, badUuids, nastyStrings } from './catalog';
import type { JsonSchema } from './openapi';

/** Raw JSON text standing for a value (`serialize` puts it in verbatim). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Ids a generated request may use: the fuzzing organization's (`own`) and another's (`other`), by kind. */
export interface IdPools {
  own: Map<string, string[]>;
  other: Map<string, string[]>;
}

export const allIds = (pool: Map<string, string[]>): string[] => [...new Set([...pool.values()].flat())];

const HUGE_LENGTHS = [1_000, 65_536, 200_001, 1_100_000];

function nested(depth: number, open: string, close: string, leaf: string): RawJson {
  return new RawJson(open.repeat(depth) + leaf + close.repeat(depth));
}

/** Values of the wrong type or shape for whatever field they replace. */
export function badValue(pools: IdPools): fc.Arbitrary<unknown> {
  const otherIds = allIds(pools.other);
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, 2 ** 64, '', '0', 'true', 'null', [], {}, [null], [[]], { '': '' }),
    fc.constantFrom(...nastyStrings),
    fc.constantFrom(...badUuids()),
    fc.constantFrom(...badDates),
    ...(otherIds.length > 0 ? [fc.constantFrom(...otherIds)] : []),
    fc.constantFrom(...HUGE_LENGTHS).map((n) => 'a'.repeat(n)),
    fc.constantFrom(...HUGE_LENGTHS).map((n) => '\u0000'.repeat(Math.min(n, 10_000))),
    fc.constantFrom(65, 1_000, 20_000).chain((depth) =>
      fc.constantFrom(nested(depth, '[', ']', '1'), nested(depth, '{"a":', '}', '1'), nested(depth, '[{"a":', '}]', '"x"')),
    ),
    fc.constantFrom(10, 63).map((depth) => nested(depth, '[', ']', '"\\u0000"')),
    fc.constantFrom(1_000, 100_000).map((n) => new RawJson(`[${new Array(n).fill('0').join(',')}]`)),
    fc.constantFrom(1_000, 30_000).map((n) => new RawJson(`{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`)),
    fc.constantFrom(new RawJson('{"__proto__":{"isAdmin":true}}'), new RawJson('{"constructor":{"prototype":{"x":1}}}'), new RawJson('"\\ud800"')),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/** A bad value guaranteed to break `schema` (so an expensive operation is refused before it starts). */
export function surelyInvalid(schema: JsonSchema): unknown[] {
  const types = typesOf(schema);
  const out: unknown[] = [];
  if (types.size > 0 && !types.has('any')) {
    for (const v of [null, true, 0, 1.5, 'text', [], {}] as unknown[]) {
      const t = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
      const accepted = types.has(t) || (t === 'integer' && types.has('number'));
      if (!accepted) out.push(v);
    }
  }
  if (types.has('string')) out.push('a\u0000b', 'x\ud800');
  if (schema.format === 'uuid') out.push(...badUuids().slice(0, 5));
  if (schema.format === 'date-time') out.push(...badDates.slice(0, 6));
  out.push(new RawJson(`${'['.repeat(10_000)}${']'.repeat(10_000)}`));
  return out;
}

/** The JSON types a schema allows; `any` when it does not say. */
export function typesOf(schema: JsonSchema): Set<string> {
  if (schema.const !== undefined) return new Set([jsonType(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonType));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return new Set(alternatives.flatMap((s: JsonSchema) => [...typesOf(s)]));
  if (schema.type === undefined) return new Set(schema.properties ? ['object'] : ['any']);
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Generation context: the ids a UUID field may take. */
export interface ValueContext {
  pools: IdPools;
  /** Path or field name of the value, to pick ids of the right kind. */
  kind?: string;
  /** Never other organizations' ids (expensive operations must fail on their own ids instead). */
  ownOnly?: boolean;
  depth?: number;
}

function uuidArb(ctx: ValueContext): fc.Arbitrary<string> {
  const own = (ctx.kind && ctx.pools.own.get(ctx.kind)) || allIds(ctx.pools.own);
  const other = ctx.ownOnly ? [] : (ctx.kind && ctx.pools.other.get(ctx.kind)) || allIds(ctx.pools.other);
  return fc.oneof(
    { weight: 4, arbitrary: own.length > 0 ? fc.constantFrom(...own) : fc.uuid() },
    { weight: 2, arbitrary: fc.uuid() },
    ...(other.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...other) }] : []),
  );
}

/** Date-times the schema takes that sit at the edges of what dates can be (and leave them once in UTC). */
const EDGE_DATES = ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59-14:00', '1970-01-01T00:00:00Z', '2038-01-19T03:14:08Z'];

function stringArb(schema: JsonSchema, ctx: ValueContext): fc.Arbitrary<string> {
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Math.max(minLength, Math.min(Number(schema.maxLength ?? 40), 40));
  switch (schema.format) {
    case 'uuid':
      return uuidArb(ctx);
    case 'date-time':
      return fc.oneof(
        { weight: 4, arbitrary: fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()) },
        { weight: 1, arbitrary: fc.constantFrom(...EDGE_DATES) },
      );
    case 'date':
      return fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.oneof(fc.webUrl(), fc.constantFrom('http://127.0.0.1:1/x', 'http://169.254.169.254/latest/meta-data/', 'https://example.com/hook', 'file:///etc/passwd'));
    default:
      break;
  }
  if (typeof schema.pattern === 'string') {
    try {
      const pattern = new RegExp(schema.pattern);
      return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= Math.max(maxLength, minLength + 200));
    } catch {
      // A pattern JavaScript cannot compile: plain strings then.
    }
  }
  // The longest string the schema takes, when it says (a prompt of 100,000 characters).
  const longest = schema.maxLength !== undefined && schema.maxLength <= 300_000 ? [fc.constantFrom('x', 'é', '💥').map((c) => c.repeat(Math.floor(Number(schema.maxLength) / c.length)))] : [];
  return fc.oneof(
    { weight: 12, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 2, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    ...longest.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/** A value that (mostly) satisfies `schema`; ids come from the pools. */
export function validValue(schema: JsonSchema, ctx: ValueContext): fc.Arbitrary<unknown> {
  const depth = ctx.depth ?? 0;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) return fc.oneof(...alternatives.map((s) => validValue({ ...schema, anyOf: undefined, oneOf: undefined, ...s }, ctx)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const merged = schema.allOf.reduce((acc: JsonSchema, s: JsonSchema) => ({ ...acc, ...s, properties: { ...acc.properties, ...s.properties } }), { ...schema, allOf: undefined });
    return validValue(merged, ctx);
  }
  const types = [...typesOf(schema)];
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue({ ...schema, type }, ctx)));
  const inner = { ...ctx, depth: depth + 1 };
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.max(Number(schema.minimum ?? -1000), -(2 ** 31)), max: Math.min(Number(schema.maximum ?? 1000), 2 ** 31 - 1) });
    case 'number':
      return fc.double({ min: Number(schema.minimum ?? -1000), max: Number(schema.maximum ?? 1000), noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringArb(schema, ctx);
    case 'array': {
      const minLength = Number(schema.minItems ?? 0);
      const items = validValue(schema.items ?? {}, inner);
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxItems ?? 3), 3));
      return schema.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const properties: Record<string, JsonSchema> = schema.properties ?? {};
      if (Object.keys(properties).length === 0 || depth > 6) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      const required: string[] = schema.required ?? [];
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, validValue(s, { ...inner, kind: name.replace(/_?[iI]d$/, '') || ctx.kind })])),
        { requiredKeys: required.filter((k) => k in properties) },
      );
      return record as fc.Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** JSON text of a body, with raw pieces spliced in. */
export function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return v;
  });
  if (text === undefined) return '';
  return raws.length === 0 ? text : text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_, i: string) => raws[Number(i)]!);
}
