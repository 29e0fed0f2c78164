/** The Linear receiver: data-change webhooks signed with the connection's webhook secret. */
import { defineRoute, type Route } from '../../route';
import { linearAnswer as answer } from '../../../schemas/linear';
import { LINEAR_LIMIT_BYTES, type LinearReceiver } from '../../../services/receivers/linear';

export function linearRoutes(receiver: LinearReceiver): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/linear',
      webhook: 'linear',
      operationId: 'linearWebhook',
      summary: 'Linear webhook receiver (Linear-Signature, webhookTimestamp within 60 s): issues assigned to Hangar start a workspace, comments reach it, finishing the issue closes it',
      tag: 'Integrations',
      auth: 'none',
      ownBody: true,
      bodyLimit: LINEAR_LIMIT_BYTES,
      // Linear retries anything but a 200.
      response: { status: 200, description: 'Accepted', schema: answer },
      errors: [400, 401, 413, 415, 503],
      // The webhook secret is the connection's, named inside the body: it is read (under the cap
      // on unverified bodies) only when the headers carry a well-formed signature.
      handler: async ({ ctx, readBody }) => {
        receiver.refuseUnsigned(ctx.headers);
        const body = await readBody({ types: ['application/json'], unverified: true });
        return receiver.accept({ headers: ctx.headers, body, contentType: ctx.get('content-type') || undefined });
      },
    }),
  ];
}
