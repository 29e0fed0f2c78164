/**
 * The declarative table every setting is read through. Each environment variable is declared
 * once, in the file of its concept (src/config/*.ts), as a `Variable`: how its text is parsed,
 * its default, its bounds (min and max of a number, the values of a choice) and a one-line
 * description. The configuration's types follow from these declarations, and so does the table
 * of variables in docs/operations.md (`npm run config:docs`).
 *
 * A variable is parsed when a concept's `build` first reads it, so a setting that only matters
 * with another (the S3 credentials without a bucket, the OTLP headers without an endpoint) is
 * checked only then, as it always was. A bad value throws a ConfigError naming the variable.
 */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The environment a configuration is read from (process.env, or a test's map). */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Variable<T> {
  /** What the text holds, as the docs name it: `integer`, `URL`, `list`, … */
  readonly type: string;
  /** One line for the docs: what the setting does. */
  readonly description: string;
  /** The default as the docs show it; a derived default in words. Empty: none. */
  readonly shownDefault: string;
  /** The values it accepts, as the docs show them (a range, a choice, a form). Empty: any text. */
  readonly accepts: string;
  readonly min?: number;
  readonly max?: number;
  /** A choice's values. */
  readonly values?: readonly string[];
  /** The value for a raw environment value (undefined: unset); throws a ConfigError naming `name`. */
  readonly parse: (raw: string | undefined, name: string) => T;
}

export type Schema = Record<string, Variable<unknown>>;

/** The parsed value of each variable of a schema. */
export type Values<S extends Schema> = { [K in keyof S]: S[K] extends Variable<infer T> ? T : never };

/** What a concept's `build` reads its variables through. */
export interface Reader<S extends Schema> {
  /** The variable's parsed value (its default when unset). */
  get<K extends keyof S & string>(name: K): Values<S>[K];
  /** Whether the variable is set to something other than the empty string (nothing is parsed). */
  isSet(name: keyof S & string): boolean;
}

/** A concept's part of the configuration: the variables it declares, and the settings they make. */
export interface Section<S extends Schema, B extends Schema, C> {
  /** The heading of its variables in the docs. */
  readonly title: string;
  /** Declared here, and nowhere else. */
  readonly variables: S;
  /** Other sections' variables that `build` reads too (their declarations, not copies). */
  readonly borrowed: B;
  readonly build: (read: Reader<S & B>, defaults: ConfigDefaults) => C;
}

/** What the process that reads the configuration knows better than a constant (the sandbox image named in package.json). */
export interface ConfigDefaults {
  sandboxImage?: string;
}

export function section<S extends Schema, B extends Schema, C>(
  title: string,
  variables: S,
  borrowed: B,
  build: (read: Reader<S & B>, defaults: ConfigDefaults) => C,
): Section<S, B, C> {
  return { title, variables, borrowed, build };
}

/** Unset, or set empty as compose passes an unset variable: the default applies. */
const unset = (raw: string | undefined): raw is undefined | '' => raw === undefined || raw === '';

const quoted = (raw: string) => `"${raw}"`;

interface Described {
  description: string;
  /** The default as the docs show it, when the value's own form says too little (`1048576 (1 MiB)`) or it is derived. */
  shownDefault?: string;
}

interface NumberOptions<D extends number | undefined> extends Described {
  min: number;
  max: number;
  default?: D;
}

function range(min: number, max: number): string {
  return max >= Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `${min}–${max}`;
}

function number<D extends number | undefined>(type: 'integer' | 'number', form: RegExp, options: NumberOptions<D>): Variable<number | D> {
  const { min, max } = options;
  return {
    type,
    description: options.description,
    shownDefault: options.shownDefault ?? (options.default === undefined ? '' : String(options.default)),
    accepts: range(min, max),
    min,
    max,
    parse(raw, name) {
      if (unset(raw)) return options.default as D;
      if (!form.test(raw)) throw new ConfigError(`${name} must be ${type === 'integer' ? 'an integer' : 'a number'}, got ${quoted(raw)}`);
      const value = Number(raw);
      if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
      return value;
    },
  };
}

/** A whole number within [min, max]; without a default, unset is undefined. */
export function integer(options: NumberOptions<number> & { default: number }): Variable<number>;
export function integer(options: NumberOptions<undefined>): Variable<number | undefined>;
export function integer(options: NumberOptions<number | undefined>): Variable<number | undefined> {
  return number('integer', /^-?\d+$/, options);
}

/** A non-negative decimal number (`0.5`, `20`) within [min, max]. */
export function decimal(options: NumberOptions<number> & { default: number }): Variable<number> {
  return number('number', /^\d+(\.\d+)?$/, options);
}

interface ChoiceOptions<T extends string> extends Described {
  values: readonly T[];
  default: T;
  /** Trim and lower-case the text first (`OTEL_*` variables). */
  normalize?: boolean;
  /** The empty string is a value (and so refused) rather than unset. */
  emptyIsValue?: boolean;
  /** How a message says the values, when not `one of a, b, c`. */
  expected?: string;
}

/** One of a fixed set of words. */
export function choice<const T extends string>(options: ChoiceOptions<T>): Variable<T> {
  const { values } = options;
  const expected = options.expected ?? `one of ${values.join(', ')}`;
  return {
    type: 'choice',
    description: options.description,
    shownDefault: options.shownDefault ?? `\`${options.default}\``,
    accepts: values.map((v) => `\`${v}\``).join(', '),
    values,
    parse(raw, name) {
      if (raw === undefined || (raw === '' && !options.emptyIsValue)) return options.default;
      const text = options.normalize ? raw.trim().toLowerCase() : raw;
      if (!(values as readonly string[]).includes(text)) throw new ConfigError(`${name} must be ${expected}, got ${quoted(text)}`);
      return text as T;
    },
  };
}

interface FlagOptions extends Described {
  default: boolean;
  /** The spellings of true and of false (after normalizing). */
  yes: readonly string[];
  no: readonly string[];
  /** Trim and lower-case the text first. */
  normalize?: boolean;
  /** Anything but a `yes` spelling is false, never an error (`OTEL_SDK_DISABLED`). */
  lenient?: boolean;
}

/** A switch, spelled as each variable always accepted it. */
export function flag(options: FlagOptions): Variable<boolean> {
  const { yes, no } = options;
  const expected = `${yes[0]} or ${no[0]}`;
  return {
    type: 'boolean',
    description: options.description,
    shownDefault: options.shownDefault ?? `\`${options.default ? yes[0] : no[0]}\``,
    accepts: options.lenient ? `\`${yes[0]}\` (anything else: ${no[0]})` : [...yes, ...no].map((v) => `\`${v}\``).join(', '),
    values: [...yes, ...no],
    parse(raw, name) {
      const text = options.normalize ? (raw ?? '').trim().toLowerCase() : (raw ?? '');
      if (text === '') return options.default;
      if (yes.includes(text)) return true;
      if (no.includes(text) || options.lenient) return false;
      throw new ConfigError(`${name} must be ${expected}, got ${quoted(raw!)}`);
    },
  };
}

interface TextOptions<D extends string | undefined> extends Described {
  default?: D;
  /** What the text is, for the docs (default `text`, `secret` when secret). */
  type?: string;
  /** What a set value must match, and how the message says it (`a lower-case SQL identifier`). */
  pattern?: RegExp;
  expected?: string;
  /** Never quote the value back (a credential). */
  secret?: boolean;
  /** Trim the text first. */
  trim?: boolean;
  /** The empty string is a value (checked against the pattern) rather than unset. */
  emptyIsValue?: boolean;
}

/** Free text, optionally of a form; without a default, unset is undefined. */
export function text(options: TextOptions<string> & { default: string }): Variable<string>;
export function text(options: TextOptions<undefined>): Variable<string | undefined>;
export function text(options: TextOptions<string | undefined>): Variable<string | undefined> {
  if (options.pattern && !options.expected) throw new Error('a text pattern needs the words that say it (expected)');
  return {
    type: options.type ?? (options.secret ? 'secret' : 'text'),
    description: options.description,
    shownDefault: options.shownDefault ?? (options.default === undefined ? '' : `\`${options.default}\``),
    accepts: options.expected ?? '',
    parse(raw, name) {
      const value = options.trim ? raw?.trim() : raw;
      if (value === undefined || (value === '' && !options.emptyIsValue)) return options.default;
      if (options.pattern && !options.pattern.test(value)) {
        throw new ConfigError(`${name} must be ${options.expected}${options.secret ? '' : `, got ${quoted(value)}`}`);
      }
      return value;
    },
  };
}

interface UrlOptions<D extends string | undefined> extends Described {
  default?: D;
  /** Keep trailing slashes (otherwise removed, so paths can be appended). */
  asGiven?: boolean;
  /** A base that request paths are appended to: no query or fragment. */
  base?: boolean;
}

/** An http(s) URL. It may hold credentials, so a message never quotes it. */
export function url(options: UrlOptions<string> & { default: string }): Variable<string>;
export function url(options: UrlOptions<undefined>): Variable<string | undefined>;
export function url(options: UrlOptions<string | undefined>): Variable<string | undefined> {
  return {
    type: 'URL',
    description: options.description,
    shownDefault: options.shownDefault ?? (options.default === undefined ? '' : `\`${options.default}\``),
    accepts: options.base ? 'http(s) URL, no query or fragment' : 'http(s) URL',
    parse(raw, name) {
      if (!raw) return options.default;
      if (!httpUrl(raw)) throw new ConfigError(`${name} must be an http(s) URL`);
      const value = options.asGiven ? raw : raw.replace(/\/+$/, '');
      if (options.base) {
        const parsed = new URL(value);
        if (parsed.search || parsed.hash) throw new ConfigError(`${name} must be a base URL without a query or fragment`);
      }
      return value;
    },
  };
}

/** The URL when the text is an http or https one. */
export function httpUrl(raw: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
}

/** Comma-separated words, trimmed, empty ones dropped; unset is the empty list. */
export function list(options: Described & { accepts?: string }): Variable<string[]> {
  return {
    type: 'list',
    description: options.description,
    shownDefault: options.shownDefault ?? 'empty',
    accepts: options.accepts ?? 'comma-separated',
    parse: (raw) => splitList(raw),
  };
}

export const splitList = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A form of its own (JSON, `id:key` pairs, `host:port` …): `parse` gets the raw value, unset included. */
export function custom<T>(options: Described & { type: string; accepts: string; parse: (raw: string | undefined, name: string) => T }): Variable<T> {
  return { type: options.type, description: options.description, shownDefault: options.shownDefault ?? '', accepts: options.accepts, parse: options.parse };
}

