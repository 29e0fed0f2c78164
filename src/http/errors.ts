/** The one place where a domain error kind becomes an HTTP status (and back, for the terminal relay). */
import type { ErrorKind } from '../domain/errors';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export const statusOf = (kind: ErrorKind): number => STATUS[kind];

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * Which dependency an unexpected error says is out of reach (both, when a refused connection
 * does not say which), or null when it is not an outage:
 * a request that fails because PostgreSQL or Temporal is down is a 503 the client may retry,
 * not a 500 that says Hangar is broken. Read from the error itself, its cause and, for a
 * connection tried on several addresses, each of its errors.
 */
export function outageOf(err: unknown, depth = 0): 'the database' | 'Temporal' | 'the database or Temporal' | null {
  if (!err || typeof err !== 'object' || depth > 4) return null;
  const e = err as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.code === 'number' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  // knex found no free connection in time; PostgreSQL's connection-exception and
  // operator-intervention classes (shutting down, not accepting connections yet); pg's own word
  // for a socket the server closed.
  if (e.name === 'KnexTimeoutError') return 'the database';
  if (typeof code === 'string' && /^(08|57P)/.test(code)) return 'the database';
  if (/Connection terminated|Client has encountered a connection error/.test(message)) return 'the database';
  // gRPC UNAVAILABLE (14) from the Temporal client, or its connection never being made.
  if ((e.name === 'ServiceError' || e.name === 'TransportError') && (code === 14 || /UNAVAILABLE|Failed to connect|connection/i.test(message))) return 'Temporal';
  if (code === 14 && /UNAVAILABLE/.test(message)) return 'Temporal';
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return 'the database or Temporal';
  for (const inner of [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const found = outageOf(inner, depth + 1);
    if (found) return found;
  }
  return null;
}
