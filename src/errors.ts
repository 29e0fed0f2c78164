/**
 * Domain errors carry an HTTP status and the spec's Error body fields. Services throw them;
 * the one error middleware turns them into `{error, details}`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string | null = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details: string | null = null) => new HttpError(400, message, details);
export const unauthorized = (details: string | null = null) => new HttpError(401, 'Invalid or missing API key', details);
export const forbidden = (message: string, details: string | null = null) => new HttpError(403, message, details);
export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const conflict = (message: string, details: string | null = null) => new HttpError(409, message, details);
export const tooManyRequests = (message: string) => new HttpError(429, message);
export const unavailable = (message: string, details: string | null = null) => new HttpError(503, message, details);

/** Postgres unique violations become 409s at the repository edge, never leaked SQL. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return !!e && e.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
