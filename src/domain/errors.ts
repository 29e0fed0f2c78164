/**
 * The errors that use cases raise on purpose. They say what went wrong in the domain's terms
 * (`kind`) and carry the spec's Error body text; `src/http/errors.ts` alone turns a kind into a
 * status, so no layer below HTTP knows about statuses.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: string | null = null,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, details: string | null = null) => new DomainError('invalid', message, details);
export const unauthenticated = (details: string | null = null) => new DomainError('unauthenticated', 'Invalid or missing API key', details);
export const forbidden = (message: string, details: string | null = null) => new DomainError('forbidden', message, details);
export const notFound = (what: string, details: string | null = null) => new DomainError('not_found', `${what} not found`, details);
export const conflict = (message: string, details: string | null = null) => new DomainError('conflict', message, details);
export const rateLimited = (message: string, details: string | null = null) => new DomainError('rate_limited', message, details);
export const unavailable = (message: string, details: string | null = null) => new DomainError('unavailable', message, details);

export const isDomainError = (err: unknown, kind?: ErrorKind): err is DomainError =>
  err instanceof DomainError && (kind === undefined || err.kind === kind);
