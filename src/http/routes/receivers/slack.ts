/**
 * Slack: the Events API receiver (signed by the connection's signing secret, its own raw body
 * and size limit, no API key) and thread attachment (interop §9).
 */
import { defineRoute, type Route } from '../../route';
import { attachThreadBody, attachThreadResponse, slackEventAnswer } from '../../../schemas/slack';
import { SLACK_EVENTS_LIMIT_BYTES, type SlackReceiver } from '../../../services/receivers/slack';
import type { SlackThreadsService } from '../../../services/receivers/slackThreads';

const tag = 'Slack';

export function slackRoutes(receiver: SlackReceiver, threads: SlackThreadsService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/slack',
      webhook: 'slack',
      operationId: 'slackEvents',
      summary: "Slack Events API receiver (X-Slack-Signature with the connection's signing secret): mentions, direct messages and thread replies",
      tag,
      auth: 'none',
      ownBody: true,
      bodyLimit: SLACK_EVENTS_LIMIT_BYTES,
      response: { status: 200, description: 'Acknowledged (url_verification: the challenge)', schema: slackEventAnswer },
      errors: [400, 401, 413, 415, 503],
      // The signing secret is the team's, named inside the body: it is read (under the cap on
      // unverified bodies) only when the headers carry a fresh, well-formed signature.
      handler: async ({ ctx, readBody }) => {
        receiver.refuseUnsigned(ctx.headers);
        return receiver.accept({ headers: ctx.headers, body: await readBody({ types: ['application/json'], unverified: true }) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/slack/threads/attach',
      operationId: 'attachSlackThread',
      summary: "Route a Slack thread to a workspace (API key, or a workspace's engine secret for itself only)",
      tag,
      auth: 'apiKeyOrEngine',
      body: attachThreadBody,
      response: { status: 200, description: 'The thread and its workspace', schema: attachThreadResponse },
      errors: [400, 401, 403, 404, 409],
      handler: async ({ actor, body }) => threads.attach(actor, body),
    }),
  ];
}
