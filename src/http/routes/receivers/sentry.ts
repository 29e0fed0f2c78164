/** The Sentry receiver: integration-platform webhooks, signed with the connection's client secret. */
import { defineRoute, type Route } from '../../route';
import { sentryAnswer as answer } from '../../../schemas/sentry';
import { SENTRY_LIMIT_BYTES, type SentryIntake } from '../../../services/receivers/sentry';

export function sentryRoutes(intake: SentryIntake): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/sentry',
      webhook: 'sentry',
      operationId: 'sentryWebhook',
      summary: 'Sentry integration webhook receiver (Sentry-Hook-Signature); issue, event_alert and error deliveries fire sentry automations',
      tag: 'Automation webhooks',
      auth: 'none',
      ownBody: true,
      bodyLimit: SENTRY_LIMIT_BYTES,
      response: { status: 202, description: 'Accepted', schema: answer },
      errors: [400, 401, 413, 415, 503],
      // The client secret is the connection's, named inside the body: it is read (under the cap
      // on unverified bodies) only when the headers carry a well-formed signature.
      handler: async ({ ctx, readBody }) => {
        intake.refuseUnsigned(ctx.headers);
        const body = await readBody({ types: ['application/json'], unverified: true });
        return intake.accept({ headers: ctx.headers, body, contentType: ctx.get('content-type') || undefined });
      },
    }),
  ];
}
