/**
 * The Linear receiver (`POST /v1/webhooks/linear`): a delivery names its Linear organization,
 * whose connection holds the webhook secret the signature must match; a stale `webhookTimestamp`
 * is refused like a forged one. Then:
 *
 * - an issue assigned to the connection's app user (`settings.app_user_id`) becomes the first
 *   message of the issue's thread (the core makes the workspace, for the Linear user who
 *   assigned it when they are a member);
 * - a comment on an issue that has a workspace is forwarded to it (never the app's own);
 * - an issue moved to a completed or canceled state, or deleted, closes its thread.
 *
 * The core records `Linear-Delivery` as the delivery id and starts the work in Temporal before
 * this answers, within Linear's 5 seconds.
 */
import { isHexSha256 } from '../../crypto/hmac';
import type { SecretBox } from '../../crypto/secretBox';
import type { ConnectionsRepository } from '../../db/connectionsRepository';
import type { IntegrationThreadsRepository } from '../../db/integrationThreadsRepository';
import { DomainError, invalid } from '../../domain/errors';
import type { Logger } from '../../logger';
import type { ThreadDispatcher } from '../../integrations/threads/types';
import {
  assignmentText,
  commentText,
  environmentTag,
  isFreshLinearTimestamp,
  linearEnvelope,
  linearThreadEvent,
  verifyLinearSignature,
} from '../../integrations/linear/webhook';
import { createSignedDeliveryOpener, header } from '../../core/receivers/signedDelivery';
import type { WebhookRequest } from './automationWebhooks';

/** Linear's deliveries are small JSON documents. */
export const LINEAR_LIMIT_BYTES = 1024 * 1024;

export interface LinearAnswer {
  accepted: true;
  /** What the delivery became: the issue's next message, its close, or nothing. */
  routed: 'message' | 'close' | null;
  /** The delivery id was seen before: nothing was done again. */
  duplicate: boolean;
  ignored?: string;
}

const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,200}$/;
const rejected = (details: string) => new DomainError('unauthenticated', 'Invalid webhook signature', details);

export function createLinearReceiver(deps: {
  connections: Pick<ConnectionsRepository, 'findByExternalId'>;
  threads: Pick<IntegrationThreadsRepository, 'find'>;
  dispatcher: ThreadDispatcher;
  secretBox: SecretBox;
  logger: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;

  const openSigned = createSignedDeliveryOpener(deps, {
    provider: 'linear',
    rejected,
    mismatch: 'Linear-Signature does not match the body for a connected Linear organization',
    externalId: (body) => linearEnvelope(body)?.organizationId ?? null,
    signingSecret: (secrets) => (typeof secrets.webhook_secret === 'string' && secrets.webhook_secret ? secrets.webhook_secret : null),
    signedWith: (secret, req) => verifyLinearSignature(secret, req.body, header(req, 'linear-signature')),
  });

  const ignored = (why: string): LinearAnswer => ({ accepted: true, routed: null, duplicate: false, ignored: why });

  return {
    /** A delivery without a well-formed `Linear-Signature` is refused before its body is read. */
    refuseUnsigned(headers: WebhookRequest['headers']): void {
      if (!isHexSha256(header({ headers }, 'linear-signature'))) throw rejected('Linear-Signature is missing or not a hex HMAC-SHA256');
    },

    async accept(req: WebhookRequest): Promise<LinearAnswer> {
      const { body, connection } = await openSigned(req);
      // Opened: the body named its organization, so it is an envelope.
      const envelope = linearEnvelope(body)!;
      if (!isFreshLinearTimestamp(envelope.webhookTimestamp, now())) throw rejected('webhookTimestamp is more than 60 seconds away from now');
      const deliveryId = header(req, 'linear-delivery');
      if (!deliveryId || !DELIVERY_ID.test(deliveryId)) throw invalid('Invalid webhook delivery', 'Linear-Delivery must be the delivery id');

      const appUserId = connection.settings.app_user_id;
      if (typeof appUserId !== 'string' || !appUserId) {
        deps.logger.warn('a linear connection has no app_user_id; its deliveries are ignored', { connectionId: connection.id });
        return ignored('the connection has no app_user_id');
      }
      const event = linearThreadEvent(envelope, appUserId);
      if (!event) return ignored('this delivery concerns no issue assigned to Hangar');
      const organizationId = connection.organization_id;

      if (event.kind === 'assigned') {
        const { issue, by } = event;
        const actorId = typeof envelope.actor?.id === 'string' ? envelope.actor.id : null;
        const { duplicate } = await deps.dispatcher.message({
          provider: 'linear',
          organizationId,
          connectionId: connection.id,
          threadKey: issue.id,
          deliveryId,
          text: assignmentText(issue, by),
          author: by ? { externalId: by.id, name: by.name, email: by.email } : { externalId: actorId ?? 'linear', name: null, email: null },
          environmentName: environmentTag(issue.description),
          title: [issue.identifier, issue.title].filter(Boolean).join(' ') || null,
          reference: { issueId: issue.id, identifier: issue.identifier, url: issue.url, teamId: issue.teamId },
          cursor: null,
        });
        return { accepted: true, routed: 'message', duplicate };
      }

      const threadKey = event.kind === 'comment' ? event.issue.id : event.issueId;
      const binding = await deps.threads.find({ organizationId, provider: 'linear', threadKey });
      if (!binding || binding.closedAt !== null || binding.replicaId === null) return ignored('no workspace works on this issue');

      if (event.kind === 'closed') {
        const { duplicate } = await deps.dispatcher.close({ provider: 'linear', organizationId, threadKey, deliveryId });
        return { accepted: true, routed: 'close', duplicate };
      }
      const issue = { ...event.issue, identifier: event.issue.identifier ?? (binding.reference.identifier as string | null | undefined) ?? null };
      const { duplicate } = await deps.dispatcher.message({
        provider: 'linear',
        organizationId,
        connectionId: connection.id,
        threadKey,
        deliveryId,
        text: commentText(issue, event.by, event.body),
        author: { externalId: event.by.id, name: event.by.name, email: event.by.email },
        reference: binding.reference,
        cursor: event.commentId,
      });
      return { accepted: true, routed: 'message', duplicate };
    },
  };
}

export type LinearReceiver = ReturnType<typeof createLinearReceiver>;
