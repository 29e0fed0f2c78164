/**
 * Structured JSON logs, one line per record, written by pino behind Hangar's small `Logger`
 * interface so call sites stay `logger.info(msg, fields)`. Callers pass fields, never whole
 * request objects or headers, so secrets have no way in; redaction is a last line of defence,
 * done in the one pass that already copies every record's fields (`scrubFields`): credential
 * headers in any `headers` object, whatever their type, and secret-looking fields at any depth.
 * pino's own path-based `redact` would walk each record again: with a wildcard path it was
 * the dearest step of the API's access line (docs/decisions/platform.md, "The request path's cost").
 */
import pino from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Fields on every line (e.g. `{ process: 'api' }`). */
  base?: Record<string, unknown>;
  /** Where each JSON line goes, without its newline; stdout when absent. Tests capture lines here. */
  write?: (line: string) => void;
}

const REDACTED = '[redacted]';

/** A string field whose name ends like this is never written. */
const SECRET_FIELD = /(secret|password|passphrase|token|api[_-]?key|private[_-]?key|authorization|cookie|credential|value|content)$/i;

/**
 * Headers that carry credentials, in any object logged under a `headers` key. Header values
 * may be arrays (`set-cookie`), which the key-name rule leaves alone, so these are censored
 * whatever their type.
 */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-hangar-api-key', 'x-gitlab-token', 'x-secret']);

/** Nesting beyond this is written as a placeholder: logs are for people, not for object dumps. */
const MAX_DEPTH = 6;

/** Credentials that show up inside free text, such as an error message quoting a request. */
function scrubText(text: string): string {
  return text
    .replace(/\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`)
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):[^\s@/]+@/gi, `$1:${REDACTED}@`);
}

/**
 * An error as a plain object: its name, message, stack, code and cause, but none of its other
 * own properties, where libraries keep request options and headers.
 */
function serializeError(err: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: scrubText(err.message) };
  if (err.stack) out.stack = scrubText(err.stack);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (err.cause !== undefined) out.cause = scrub(err.cause, depth + 1, seen);
  return out;
}

function scrub(value: unknown, depth: number, seen: WeakSet<object>, headers = false): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[nested]';
  seen.add(value);
  try {
    if (value instanceof Error) return serializeError(value, depth, seen);
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1, seen));
    // Dates, buffers and other class instances serialize themselves (toJSON) or are not ours to walk.
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    return scrubFields(value as Record<string, unknown>, depth + 1, seen, headers);
  } finally {
    seen.delete(value);
  }
}

function scrubFields(fields: Record<string, unknown>, depth = 0, seen = new WeakSet<object>(), headers = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    if (!Object.prototype.hasOwnProperty.call(fields, key)) continue;
    const value = fields[key];
    if (value === undefined) continue;
    if (headers && SECRET_HEADERS.has(key.toLowerCase())) out[key] = REDACTED;
    else if (typeof value === 'string') out[key] = SECRET_FIELD.test(key) ? REDACTED : value;
    else out[key] = scrub(value, depth, seen, key === 'headers');
  }
  return out;
}

function adapt(logger: pino.Logger): Logger {
  return {
    debug: (msg, fields) => logger.debug(fields ?? {}, msg),
    info: (msg, fields) => logger.info(fields ?? {}, msg),
    warn: (msg, fields) => logger.warn(fields ?? {}, msg),
    error: (msg, fields) => logger.error(fields ?? {}, msg),
    // pino runs `formatters.bindings` on the root's bindings only, so a child's are scrubbed here.
    child: (fields) => adapt(logger.child(scrubFields(fields))),
  };
}

/** pino's `isoTime`, formatted once per millisecond rather than once per line. */
let timeMs = Number.NaN;
let timeField = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    timeField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return timeField;
}

function createPinoLogger(options: LoggerOptions = {}): pino.Logger {
  const { write } = options;
  const destination: pino.DestinationStream = write
    ? { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) }
    : pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: options.level ?? 'info',
      base: options.base ? scrubFields(options.base) : null,
      timestamp: isoTime,
      // Fields pass through `formatters.log` first; pino's own `err` serializer would copy every
      // enumerable property of an error, which is where secrets hide, so it is switched off.
      serializers: { err: (value: unknown) => value },
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => scrubFields(bindings),
        log: (fields) => scrubFields(fields),
      },
    },
    destination,
  );
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return adapt(createPinoLogger(options));
}

/** Discards everything before it is formatted. */
export const silentLogger: Logger = adapt(pino({ level: 'silent' }));
