/**
 * The Sentry receiver (`POST /v1/webhooks/sentry`): integration-platform deliveries fire the
 * organization's `sentry` automations. A delivery names its Sentry organization; that
 * organization's connection holds the client secret the signature must match, so a delivery
 * reaches only the organization that connected that Sentry organization, and only after its
 * signature is verified. Accepted events go to the inbox (debounced per Sentry issue), deduplicated
 * by `Request-ID` and, since that header is not signed, by the signed body: a captured delivery
 * sent again under another id (or none) is a duplicate.
 */
import type { ConnectionsRepository } from '../../db/connectionsRepository';
import type { AutomationsRepository } from '../../db/automationsRepository';
import { isHexSha256 } from '../../crypto/hmac';
import type { SecretBox } from '../../crypto/secretBox';
import { sentryIssueDebounceKey } from '../../domain/automations/events';
import { sentryTriggerMatches, type SentryTriggerConfig } from '../../domain/automations/sentry';
import { DomainError, invalid } from '../../domain/errors';
import type { Logger } from '../../logger';
import { parseSentryEvent, sentryInstallationUuid, sentryOrganizationSlug, verifySentrySignature } from '../../integrations/sentry/events';
import { createSignedDeliveryOpener, header } from '../../core/receivers/signedDelivery';
import type { AutomationInbox, InboxItem } from '../automations/inbox';
import type { CodeHostingAnswer, WebhookRequest } from './automationWebhooks';
import { PayloadError } from '../../integrations/payloadError';

/** Sentry's payloads are event JSON with stack frames; a few MB at most. */
export const SENTRY_LIMIT_BYTES = 5 * 1024 * 1024;

const rejected = (details: string) => new DomainError('unauthenticated', 'Invalid webhook signature', details);

/** Request-ID is Sentry's delivery id; anything else cannot be a key of ours. */
const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export function createSentryIntake(deps: {
  connections: Pick<ConnectionsRepository, 'findByExternalId'>;
  automations: Pick<AutomationsRepository, 'withEventTrigger'>;
  inbox: Pick<AutomationInbox, 'accept' | 'isReplayedBody'>;
  secretBox: SecretBox;
  logger: Logger;
}) {
  const openSigned = createSignedDeliveryOpener(deps, {
    provider: 'sentry',
    rejected,
    mismatch: 'Sentry-Hook-Signature does not match the body for a connected Sentry organization',
    externalId: sentryOrganizationSlug,
    // The integration's client secret signs its deliveries (sealed JSON `{client_secret}`).
    signingSecret: (secrets) => (typeof secrets.client_secret === 'string' && secrets.client_secret ? secrets.client_secret : null),
    signedWith: (secret, req) => verifySentrySignature(secret, req.body, header(req, 'sentry-hook-signature')),
  });

  return {
    /** A delivery without a well-formed `Sentry-Hook-Signature` is refused before its body is read. */
    refuseUnsigned(headers: WebhookRequest['headers']): void {
      if (!isHexSha256(header({ headers }, 'sentry-hook-signature'))) throw rejected('Sentry-Hook-Signature is missing or not a hex HMAC-SHA256');
    },

    async accept(req: WebhookRequest): Promise<CodeHostingAnswer> {
      const { body, connection } = await openSigned(req);
      const installation = connection.settings.installation_id;
      if (typeof installation === 'string' && installation !== sentryInstallationUuid(body)) {
        throw rejected('the delivery comes from another installation of the integration');
      }
      const requestId = header(req, 'request-id');
      const delivery = requestId && DELIVERY_ID.test(requestId) ? { provider: 'sentry', id: requestId } : undefined;
      // Sentry signs the body only, and no timestamp: the body is what a replay cannot change.
      if (await deps.inbox.isReplayedBody('sentry', req.body, delivery?.id)) return { accepted: true, matched: 0, duplicate: true };

      const resource = header(req, 'sentry-hook-resource') ?? '';
      let event;
      try {
        event = parseSentryEvent(resource, body);
      } catch (err) {
        if (err instanceof PayloadError) throw invalid('Invalid webhook payload', err.message);
        throw err;
      }
      if (!event) return { accepted: true, matched: 0, duplicate: false, ignored: 'this resource or action triggers no automation' };

      const rows = await deps.automations.withEventTrigger(connection.organization_id, 'sentry', event.event);
      const items: InboxItem[] = [];
      for (const row of rows) {
        const trigger = row.triggers.find((t) => t.type === 'sentry' && t.config.event === event.event);
        if (!trigger || !sentryTriggerMatches(trigger.config as SentryTriggerConfig, event.projectSlug, event.level)) continue;
        items.push({ automationId: row.id, key: sentryIssueDebounceKey(event.projectSlug, event.issueId), payload: event.payload, trigger: 'sentry' });
      }
      const { duplicate, accepted } = await deps.inbox.accept(items, delivery);
      const matched = accepted.filter((a) => a !== null).length;
      deps.logger.debug('sentry event accepted', { event: event.event, organizationId: connection.organization_id, requestId, matched, duplicate });
      return { accepted: true, matched, duplicate };
    },
  };
}

export type SentryIntake = ReturnType<typeof createSentryIntake>;
