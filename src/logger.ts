/**
 * Structured JSON logs, one line per record. Callers pass fields, never whole request
 * objects or headers, so secrets have no way in; `redact` is a last line of defence for
 * field names that look secret.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /(secret|password|token|api_?key|authorization|cookie|credential|value|content)$/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_FIELD.test(k) && typeof v === 'string') out[k] = '[redacted]';
    else if (v instanceof Error) out[k] = { name: v.name, message: v.message, stack: v.stack };
    else out[k] = v;
  }
  return out;
}

export function createLogger(
  options: { level?: LogLevel; base?: Record<string, unknown>; write?: (line: string) => void } = {},
): Logger {
  const threshold = LEVELS[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const base = options.base ?? {};
  const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[level] < threshold) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...redact(fields ?? {}) }));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
  };
}

export const silentLogger: Logger = createLogger({ write: () => {} });
