/**
 * A delivery that is signed, and so trusted, but lacks what its mapping needs (any provider:
 * GitHub, GitLab, Slack, Sentry). Receivers answer it as a 400 with the message.
 */
export class PayloadError extends Error {
  override name = 'PayloadError';

  constructor(
    message: string,
    /** The field the mapping needed, when one is missing. */
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

/** The payload lacks `field` (a dotted path into the body). */
export const missingField = (field: string, payload = 'Webhook payload') => new PayloadError(`${payload} is missing required field "${field}"`, field);
