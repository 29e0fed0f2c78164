/**
 * The Slack `ThreadAdapter` (worker side): how Hangar answers in a Slack thread. The bot token
 * comes from the thread's connection, opened here for each call and never kept or logged.
 *
 * - `acknowledge`: an :eyes: reaction on the message; when the thread gets a new workspace, a
 *   message in the thread naming it (with its link when the public URL is known).
 * - `reply`: the agent's answer, split to Slack's message size, its pull requests linked; a
 *   failed turn says so.
 * - `expand`: the thread's messages after the cursor (`conversations.replies`), without the
 *   bot's own, so a follow-up forwards only what is new; the first time, the thread so far.
 * - `authorEmail`: `users.info` → profile.email, only for a member of the connection's own team.
 */
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import type { Logger } from '../../logger';
import type { InboundThreadMessage, ThreadAdapter, ThreadAuthor, ThreadBinding, ThreadReply, ThreadRouting } from '../threads/types';
import { botUserIdOf, openSlackSecrets, slackReferenceOf, type SlackThreadReference } from './connection';
import { acknowledgement, compareTs, replyMessages, threadText } from './format';
import { SlackApiError, type SlackApiMessage, type SlackWebApi } from './webApi';

export interface SlackAdapterDeps {
  repos: Pick<Repositories, 'connections' | 'replicas'>;
  secretBox: SecretBox;
  slack: SlackWebApi;
  /** Links to a workspace in the acknowledgement. */
  publicBaseUrl?: string;
  logger: Logger;
}

/** Message subtypes that are still somebody writing in the thread. */
const WRITTEN = new Set([undefined, 'file_share', 'thread_broadcast', 'bot_message']);
const BOT_ID_TTL_MS = 10 * 60_000;

export function createSlackThreadAdapter(deps: SlackAdapterDeps): ThreadAdapter {
  const { slack, logger } = deps;
  /** Bot user ids learnt from auth.test, for connections that did not record one. */
  const botIds = new Map<string, { userId: string; at: number }>();

  async function open(binding: Pick<ThreadBinding, 'connectionId' | 'organizationId'>): Promise<{ token: string; botUserId: string | null; teamId: string }> {
    if (!binding.connectionId) throw new Error('a Slack thread without a connection');
    const row = await deps.repos.connections.findSealed(binding.connectionId);
    if (!row || row.organization_id !== binding.organizationId || row.provider !== 'slack') throw new Error('the Slack connection of this thread is gone');
    const token = openSlackSecrets(deps.secretBox, row).bot_token;
    return { token, botUserId: botUserIdOf(row.settings) ?? (await learntBotId(row.id, token)), teamId: row.external_id };
  }

  async function learntBotId(connectionId: string, token: string): Promise<string | null> {
    const known = botIds.get(connectionId);
    if (known && Date.now() - known.at < BOT_ID_TTL_MS) return known.userId;
    try {
      const { userId } = await slack.authTest(token);
      botIds.set(connectionId, { userId, at: Date.now() });
      return userId || null;
    } catch (err) {
      logger.warn('could not learn the Slack bot user', { connectionId, err: err as Error });
      return null;
    }
  }

  function referenceOf(reference: Record<string, unknown>): SlackThreadReference {
    const ref = slackReferenceOf(reference);
    if (!ref) throw new Error('a Slack thread without channel and thread ts');
    return ref;
  }

  const warn = (what: string, binding: Pick<ThreadBinding, 'id'>, err: unknown) =>
    logger.warn(what, { threadId: binding.id, code: err instanceof SlackApiError ? err.code : undefined, err: err instanceof SlackApiError ? undefined : (err as Error) });

  return {
    provider: 'slack',

    async acknowledge(binding: ThreadBinding, routing: ThreadRouting): Promise<void> {
      const ref = referenceOf(binding.reference);
      const { token } = await open(binding);
      try {
        await slack.addReaction(token, { channel: ref.channel_id, timestamp: ref.message_ts, name: 'eyes' });
      } catch (err) {
        warn('could not react in the Slack thread', binding, err);
      }
      if (!routing.created) return;
      const replica = await deps.repos.replicas.find(routing.replicaId);
      const text = acknowledgement({ id: routing.replicaId, name: replica?.name ?? null }, deps.publicBaseUrl);
      try {
        await slack.postMessage(token, { channel: ref.channel_id, threadTs: ref.thread_ts, text });
      } catch (err) {
        warn('could not post the acknowledgement in the Slack thread', binding, err);
      }
    },

    /**
     * Posts the answer message by message. Only a failure before anything was posted, and one
     * worth retrying, is thrown (the caller's retry then posts nothing twice); later failures
     * and refusals (the bot left the channel) are logged.
     */
    async reply(binding: ThreadBinding, reply: ThreadReply): Promise<void> {
      const ref = referenceOf(binding.reference);
      const { token } = await open(binding);
      const parts = replyMessages(reply);
      for (const [i, text] of parts.entries()) {
        try {
          await slack.postMessage(token, { channel: ref.channel_id, threadTs: ref.thread_ts, text });
        } catch (err) {
          if (i === 0 && err instanceof SlackApiError && err.retryable) throw err;
          warn('could not post the answer in the Slack thread', binding, err);
          return;
        }
      }
    },

    async expand(binding: ThreadBinding, message: InboundThreadMessage): Promise<{ text: string; cursor: string | null }> {
      const ref = referenceOf(message.reference);
      const upTo = message.cursor ?? ref.message_ts;
      const after = binding.cursor;
      // The cursor never moves back: a delivery handled after a later one leaves it where it is.
      // Already carried by a later delivery of this thread: nothing new to forward.
      if (after !== null && compareTs(after, upTo) >= 0) return { text: '', cursor: after };
      const cursor = upTo;
      const fallback = { text: message.text, cursor };
      let token: string;
      let botUserId: string | null;
      let thread: SlackApiMessage[];
      try {
        ({ token, botUserId } = await open(binding));
        thread = await slack.replies(token, { channel: ref.channel_id, ts: ref.thread_ts, oldest: after });
      } catch (err) {
        // The message itself still reaches the workspace; only earlier context is missing.
        warn('could not read the Slack thread; forwarding the message alone', binding, err);
        return fallback;
      }
      const fresh = thread
        .filter((m) => (after === null || compareTs(m.ts, after) > 0) && compareTs(m.ts, upTo) <= 0)
        .filter((m) => WRITTEN.has(m.subtype) && !(botUserId && m.user === botUserId))
        .sort((a, b) => compareTs(a.ts, b.ts));
      if (!fresh.some((m) => m.ts === upTo)) return fallback;
      const text = threadText(fresh, botUserId, after === null);
      return { text: text || message.text, cursor };
    },

    async authorEmail(binding: Pick<ThreadBinding, 'connectionId' | 'organizationId'>, author: ThreadAuthor): Promise<string | null> {
      if (author.email) return author.email;
      try {
        const { token, teamId } = await open(binding);
        const user = await slack.userInfo(token, author.externalId);
        // Slack shows the addresses of people of other organizations in shared channels (and of
        // strangers): theirs vouch for nothing here, only a member of the connection's own team's do.
        return user.isBot || user.teamId !== teamId ? null : user.email;
      } catch (err) {
        logger.warn('could not read the Slack user', { code: err instanceof SlackApiError ? err.code : undefined });
        return null;
      }
    },
  };
}
