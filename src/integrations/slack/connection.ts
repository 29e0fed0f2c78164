/**
 * A Slack connection's sealed secrets (`{bot_token, signing_secret}`) and settings
 * (`{bot_user_id?}`), opened only where they are used: the receiver (signing secret) and the
 * adapter (bot token). Nothing here logs or returns them beyond the caller.
 */
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';

export interface SlackSecrets {
  bot_token: string;
  signing_secret: string;
}

export class SlackConnectionError extends Error {
  override name = 'SlackConnectionError';
}

export function openSlackSecrets(secretBox: SecretBox, connection: { id: string; secrets_sealed: string }): SlackSecrets {
  let parsed: unknown;
  try {
    parsed = JSON.parse(secretBox.open(connection.secrets_sealed, sealedField('connections', 'secrets_sealed', connection.id)));
  } catch {
    throw new SlackConnectionError('the Slack connection secrets cannot be opened');
  }
  const s = (parsed ?? {}) as Partial<SlackSecrets>;
  if (typeof s.bot_token !== 'string' || !s.bot_token || typeof s.signing_secret !== 'string' || !s.signing_secret) {
    throw new SlackConnectionError('the Slack connection lacks bot_token or signing_secret');
  }
  return { bot_token: s.bot_token, signing_secret: s.signing_secret };
}

/** The bot's user id when the connection recorded it. */
export function botUserIdOf(settings: Record<string, unknown> | null | undefined): string | null {
  const id = settings?.bot_user_id;
  return typeof id === 'string' && /^[A-Z0-9]{2,40}$/.test(id) ? id : null;
}

/** What a Slack thread's `reference` holds (set by the receiver and by attach). */
export interface SlackThreadReference {
  team_id: string;
  channel_id: string;
  thread_ts: string;
  message_ts: string;
}

export function slackReferenceOf(reference: Record<string, unknown>): SlackThreadReference | null {
  const { team_id, channel_id, thread_ts, message_ts } = reference as Partial<Record<keyof SlackThreadReference, unknown>>;
  if (typeof team_id !== 'string' || typeof channel_id !== 'string' || typeof thread_ts !== 'string') return null;
  return { team_id, channel_id, thread_ts, message_ts: typeof message_ts === 'string' ? message_ts : thread_ts };
}
