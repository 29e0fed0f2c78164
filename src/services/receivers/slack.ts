/**
 * The Slack Events API receiver (`POST /v1/webhooks/slack`). A delivery finds its organization
 * only through its connection (the team id) and a signature made with that connection's
 * signing secret; an unknown team, a bad or a stale signature are the same 401, and nothing
 * runs. What a verified message means is decided here without calling Slack, and the work is
 * handed to the thread routing core (durable, then Temporal) before the answer goes out, well
 * within Slack's three seconds.
 *
 * - A mention or a direct message goes to its thread's workspace (created on the first one).
 * - A reply in a thread that is already bound to a workspace goes there too, mention or not.
 * - A channel message (mentions included) also feeds the organization's Slack-triggered
 *   automations.
 *
 * Replays: the core records each delivery id once, and the id is the message
 * (`slack:{team}:{channel}:{ts}`), so a retry (`X-Slack-Retry-Num`), a replay of a captured
 * request within the five minutes, and the same message sent as both `app_mention` and
 * `message` all do nothing the second time. A replay with a fresh timestamp needs a new
 * signature, which only the signing secret can make.
 */
import { createSignedDeliveryOpener, header } from '../../core/receivers/signedDelivery';
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import type { SealedConnectionRow } from '../../db/connectionsRepository';
import { DomainError, invalid } from '../../domain/errors';
import type { Logger } from '../../logger';
import { botUserIdOf } from '../../integrations/slack/connection';
import {
  environmentTag,
  envelopeTeamId,
  messageKind,
  parseSlackEnvelope,
  plainText,
  slackMessageDeliveryId,
  slackThreadKey,
  threadRootOf,
  titleOf,
  type SlackMessage,
} from '../../integrations/slack/events';
import { slackTimestampFresh, verifySlackSignature } from '../../integrations/slack/signature';
import type { InboundThreadMessage, ThreadDispatcher } from '../../integrations/threads/types';
import type { SlackAutomationIntake } from './slackAutomationIntake';
import { PayloadError } from '../../integrations/payloadError';

/** Slack's event payloads are a few kilobytes; this is generous. */
export const SLACK_EVENTS_LIMIT_BYTES = 512 * 1024;

export interface SlackRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface SlackAnswer {
  ok: true;
  challenge?: string;
  routed?: boolean;
  duplicate?: boolean;
  automations?: number;
  ignored?: string;
}

/** `X-Slack-Signature`'s form; anything else can never match. */
const SIGNATURE = /^v0=[0-9a-f]{64}$/;

/** One answer for every delivery that cannot be trusted: nothing tells a caller which check failed. */
const rejected = () => new DomainError('unauthenticated', 'Invalid request signature', null);

export function createSlackReceiver(deps: {
  repos: Pick<Repositories, 'connections' | 'integrationThreads'>;
  secretBox: SecretBox;
  threads: ThreadDispatcher;
  automations: SlackAutomationIntake;
  /** Slack connections to try for a url_verification, which names no team. */
  slackConnections: () => Promise<SealedConnectionRow[]>;
  logger: Logger;
  nowSeconds?: () => number;
}) {
  const { logger } = deps;
  const now = deps.nowSeconds ?? (() => Math.floor(Date.now() / 1000));

  const openSigned = createSignedDeliveryOpener(
    { connections: deps.repos.connections, secretBox: deps.secretBox, logger },
    {
      provider: 'slack',
      rejected,
      mismatch: '',
      externalId: envelopeTeamId,
      // A connection is usable only with both: the bot token answers, the signing secret verifies.
      signingSecret: (secrets) =>
        typeof secrets.signing_secret === 'string' && secrets.signing_secret && typeof secrets.bot_token === 'string' && secrets.bot_token ? secrets.signing_secret : null,
      signedWith: (secret, req) =>
        verifySlackSignature(secret, { timestamp: header(req, 'x-slack-request-timestamp'), signature: header(req, 'x-slack-signature') }, req.body, now()) === 'ok',
      // Slack sets up a Request URL with a challenge that names no team: any connected app may have signed it.
      unnamed: async (body) => ((body as { type?: unknown } | null)?.type === 'url_verification' ? deps.slackConnections() : []),
    },
  );

  /** A stale or unsigned request is refused before its body is read or any connection is looked up or opened. */
  function refuseUnsigned(headers: SlackRequest['headers']): void {
    const signed = SIGNATURE.test(header({ headers }, 'x-slack-signature') ?? '');
    if (!signed || !slackTimestampFresh(header({ headers }, 'x-slack-request-timestamp'), now())) throw rejected();
  }

  function inbound(connection: SealedConnectionRow, message: SlackMessage, botUserId: string | null): InboundThreadMessage {
    const root = threadRootOf(message);
    const text = plainText(message.text, botUserId);
    return {
      provider: 'slack',
      organizationId: connection.organization_id,
      connectionId: connection.id,
      threadKey: slackThreadKey(message.teamId, message.channelId, root),
      deliveryId: slackMessageDeliveryId(message),
      text,
      author: { externalId: message.user, ...(message.authorTeamId && message.authorTeamId !== message.teamId ? { external: true } : {}) },
      environmentName: environmentTag(message.text),
      title: titleOf(text),
      reference: { team_id: message.teamId, channel_id: message.channelId, thread_ts: root, message_ts: message.ts },
      cursor: message.ts,
    };
  }

  /** A reply (not a thread's root) in a thread that already talks to a workspace. */
  async function inBoundThread(connection: SealedConnectionRow, message: SlackMessage): Promise<boolean> {
    if (!message.threadTs || message.threadTs === message.ts) return false;
    const thread = await deps.repos.integrationThreads.find({
      organizationId: connection.organization_id,
      provider: 'slack',
      threadKey: slackThreadKey(message.teamId, message.channelId, message.threadTs),
    });
    return !!thread && thread.replicaId !== null && thread.closedAt === null;
  }

  const isConversation = (message: SlackMessage) => message.channelType === 'im' || message.channelType === 'mpim' || message.channelId.startsWith('D');

  return {
    refuseUnsigned,

    async accept(req: SlackRequest): Promise<SlackAnswer> {
      refuseUnsigned(req.headers);
      const { body, connection } = await openSigned(req);
      const botUserId = botUserIdOf(connection.settings);
      let delivery;
      try {
        delivery = parseSlackEnvelope(body, botUserId);
      } catch (err) {
        if (err instanceof PayloadError) throw invalid('Invalid Slack event', err.message);
        throw err;
      }
      if (delivery.kind === 'url_verification') return { ok: true, challenge: delivery.challenge };
      if (delivery.kind === 'ignored') return { ok: true, ignored: delivery.reason };
      if (delivery.teamId !== connection.external_id) throw rejected();

      const { message } = delivery;
      const kind = messageKind(message, delivery.botUserId);
      const deliveryId = slackMessageDeliveryId(message);
      const answer: SlackAnswer = { ok: true, routed: false, duplicate: false, automations: 0 };
      if (kind !== 'channel' || (await inBoundThread(connection, message))) {
        const { duplicate } = await deps.threads.message(inbound(connection, message, delivery.botUserId));
        answer.routed = !duplicate;
        answer.duplicate = duplicate;
      }
      if (kind !== 'direct' && !isConversation(message)) {
        const fired = await deps.automations.accept(connection.organization_id, message, deliveryId);
        answer.automations = fired.matched;
        answer.duplicate ||= fired.duplicate;
      }
      logger.info('slack event', {
        organizationId: connection.organization_id,
        eventId: delivery.eventId,
        retry: header(req, 'x-slack-retry-num') ?? null,
        kind,
        routed: answer.routed,
        duplicate: answer.duplicate,
        automations: answer.automations,
      });
      return answer;
    },
  };
}

export type SlackReceiver = ReturnType<typeof createSlackReceiver>;
