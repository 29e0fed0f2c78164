/** The one place where a domain error kind becomes an HTTP status (and back, for the terminal relay). */
import type { ErrorKind } from '../domain/errors';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export const statusOf = (kind: ErrorKind): number => STATUS[kind];
