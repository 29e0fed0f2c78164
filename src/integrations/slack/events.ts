/**
 * Slack Events API envelopes as Hangar reads them. Pure: no I/O, so the receiver can decide
 * what a delivery means before it answers (Slack wants an answer within three seconds).
 *
 * Only people's messages count: bot messages, Hangar's own bot user, edits, deletions, joins
 * and the other subtypes are ignored. A message that mentions the bot arrives twice when the
 * app subscribes to both `app_mention` and `message.channels` (two event ids, one message ts),
 * which is why a delivery is identified by its message (`slackMessageDeliveryId`), not its event.
 */
import { slackThreadDebounceKey } from '../../domain/automations/events';
import { PayloadError } from '../payloadError';

/** A person's message, in a channel or a direct conversation. */
export interface SlackMessage {
  eventType: 'app_mention' | 'message';
  teamId: string;
  channelId: string;
  /** `channel`, `group` (private), `im`, `mpim`; null when Slack did not say (app_mention). */
  channelType: string | null;
  user: string;
  /**
   * The author's team as the event names it (`user_team`, else `team`); null when it does not.
   * Another team than the connection's is a person of another organization (Slack Connect).
   */
  authorTeamId: string | null;
  /** As Slack sent it (mrkdwn, entities escaped). */
  text: string;
  ts: string;
  /** The thread's root ts when the message is in a thread (the root itself carries its own ts). */
  threadTs: string | null;
}

export type SlackDelivery =
  | { kind: 'url_verification'; challenge: string }
  | { kind: 'message'; teamId: string; eventId: string; botUserId: string | null; message: SlackMessage }
  | { kind: 'ignored'; teamId: string | null; reason: string };

/** Subtypes that are still a person writing: a file with a comment, a reply also sent to the channel. */
const PERSON_SUBTYPES = new Set(['file_share', 'thread_broadcast']);
const TS = /^\d{1,12}\.\d{1,8}$/;
const ID = /^[A-Z0-9]{2,40}$/;

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** The team an envelope claims to come from (read before the signature is checked, to find its secret). */
export function envelopeTeamId(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const team = str((body as Record<string, unknown>).team_id);
  return team && ID.test(team) ? team : null;
}

/** Maps a verified envelope to what Hangar does with it. Throws PayloadError when malformed. */
export function parseSlackEnvelope(body: unknown, ownBotUserId: string | null = null): SlackDelivery {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new PayloadError('the body is not a JSON object');
  const envelope = body as Record<string, unknown>;
  if (envelope.type === 'url_verification') {
    const challenge = str(envelope.challenge);
    if (!challenge || challenge.length > 500) throw new PayloadError('url_verification without a challenge');
    return { kind: 'url_verification', challenge };
  }
  const teamId = envelopeTeamId(envelope);
  if (envelope.type !== 'event_callback') return { kind: 'ignored', teamId, reason: `envelope type ${String(envelope.type)}` };
  if (!teamId) throw new PayloadError('event_callback without a team_id');
  const eventId = str(envelope.event_id);
  if (!eventId || !/^[A-Za-z0-9]{1,64}$/.test(eventId)) throw new PayloadError('event_callback without a valid event_id');
  const event = envelope.event;
  if (!event || typeof event !== 'object') throw new PayloadError('event_callback without an event');
  const botUserId = ownBotUserId ?? authorizedBot(envelope.authorizations);
  const ignored = (reason: string): SlackDelivery => ({ kind: 'ignored', teamId, reason });

  const e = event as Record<string, unknown>;
  if (e.type !== 'app_mention' && e.type !== 'message') return ignored(`event type ${String(e.type)}`);
  const subtype = str(e.subtype);
  if (subtype && !PERSON_SUBTYPES.has(subtype)) return ignored(`message subtype ${subtype}`);
  if (str(e.bot_id) || e.bot_profile) return ignored('a bot message');
  const user = str(e.user);
  if (!user) return ignored('a message without a user');
  if (botUserId && user === botUserId) return ignored("Hangar's own message");
  const channelId = str(e.channel);
  const ts = str(e.ts);
  if (!channelId || !ID.test(channelId)) throw new PayloadError('event without a valid channel');
  if (!ts || !TS.test(ts)) throw new PayloadError('event without a valid ts');
  const threadTs = str(e.thread_ts);
  if (threadTs !== null && !TS.test(threadTs)) throw new PayloadError('event with an invalid thread_ts');
  return {
    kind: 'message',
    teamId,
    eventId,
    botUserId,
    message: {
      eventType: e.type,
      teamId,
      channelId,
      channelType: str(e.channel_type),
      user,
      authorTeamId: str(e.user_team) ?? str(e.team),
      text: typeof e.text === 'string' ? e.text : '',
      ts,
      threadTs,
    },
  };
}

/** The bot user the event was delivered to (`authorizations`, Slack's replacement for `authed_users`). */
function authorizedBot(authorizations: unknown): string | null {
  if (!Array.isArray(authorizations)) return null;
  const bot = authorizations.find((a) => a && typeof a === 'object' && (a as Record<string, unknown>).is_bot === true) as Record<string, unknown> | undefined;
  return str(bot?.user_id);
}

/** What a message is to Hangar. */
export type SlackMessageKind =
  /** Addressed to the bot: starts or reaches the thread's workspace. */
  | 'mention'
  | 'direct'
  /** A channel message not addressed to the bot: a follow-up if its thread is bound, and automation input. */
  | 'channel';

export function messageKind(message: SlackMessage, botUserId: string | null): SlackMessageKind {
  if (message.eventType === 'app_mention') return 'mention';
  if (message.channelType === 'im') return 'direct';
  // The same message also comes as app_mention: that delivery is the one that routes it.
  if (botUserId && mentions(message.text, botUserId)) return 'mention';
  return 'channel';
}

export const mentions = (text: string, userId: string) => text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`);

/** The thread a message belongs to: its thread's root, or itself. */
export const threadRootOf = (message: Pick<SlackMessage, 'ts' | 'threadTs'>) => message.threadTs ?? message.ts;

/** Stable per thread within an organization: `T1:C1:1700000000.000100`. */
export const slackThreadKey = (teamId: string, channelId: string, threadTs: string) => `${teamId}:${channelId}:${threadTs}`;

/** One delivery per message, whichever event (and retry) carried it. */
export const slackMessageDeliveryId = (message: Pick<SlackMessage, 'teamId' | 'channelId' | 'ts'>) => `slack:${message.teamId}:${message.channelId}:${message.ts}`;

export const slackMessageDebounceKey = (message: Pick<SlackMessage, 'channelId' | 'ts' | 'threadTs'>) => slackThreadDebounceKey(message.channelId, threadRootOf(message));

const ENV_TAG = /\[env:\s*([^\]\n]{1,100}?)\s*\]/i;

/** An inline `[env:name]`: the environment a new workspace uses. */
export function environmentTag(text: string): string | null {
  return ENV_TAG.exec(text)?.[1] ?? null;
}

/**
 * Slack mrkdwn as the agent should read it: the bot's mention and `[env:…]` removed, links and
 * channel references written out, the three escaped entities restored.
 */
export function plainText(text: string, botUserId: string | null): string {
  let out = text;
  if (botUserId) out = out.split(`<@${botUserId}>`).join('').replace(new RegExp(`<@${botUserId}\\|[^>]*>`, 'g'), '');
  out = out.replace(new RegExp(ENV_TAG.source, 'gi'), '');
  out = out
    .replace(/<#([A-Z0-9]+)\|([^>]*)>/g, (_m, id: string, name: string) => `#${name || id}`)
    .replace(/<(https?:\/\/[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<(https?:\/\/[^>]+)>/g, '$1')
    .replace(/<mailto:([^|>]+)\|[^>]+>/g, '$1')
    .replace(/<!(here|channel|everyone)>/g, '@$1');
  out = out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return out.replace(/[ \t]{2,}/g, ' ').trim();
}

/** A new workspace's name: the message's first line, shortened. */
export function titleOf(text: string): string | null {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  if (!line) return null;
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
