/** Slack: the Events API receiver's answers and thread attachment (interop §9, docs/decisions/receivers.md "Slack"). */
import { type BodyOf, dateTime, type JsonSchema, nullableUuid, object, uuid } from './common';

/** Public and private channels, group and direct conversations: C…, G…, D…. */
export const slackChannelId = { type: 'string', pattern: '^[CGD][A-Z0-9]{2,39}$', description: 'A Slack conversation id (C…, G…, D…)' } as const;
export const slackTs = { type: 'string', pattern: '^[0-9]{1,12}\\.[0-9]{1,8}$', description: 'A Slack message timestamp, e.g. 1700000000.000100' } as const;

export const attachThreadBody = object(
  {
    channel_id: slackChannelId,
    thread_ts: { ...slackTs, description: "The thread's root message ts" },
    workspace_id: { ...uuid, description: 'Required with an API key; with an engine secret it defaults to (and may only be) the calling workspace' },
  },
  ['channel_id', 'thread_ts'],
);

/** Where the thread is. Hangar keeps neither the root message's text nor its author (attach reads nothing from Slack): both are ''. */
const slackThreadMetadata: JsonSchema = object(
  {
    channel_id: { type: 'string' },
    thread_ts: { type: 'string' },
    message_ts: { type: 'string', description: 'The message the thread was last routed or attached by' },
    original_message: { type: 'string', description: "The root message's text: '' (not kept)" },
    user_id: { type: 'string', description: "The root message's Slack author: '' (not kept)" },
  },
  ['channel_id', 'thread_ts', 'original_message', 'user_id'],
);

/** The original's `SlackThreadRecord`. */
export const slackThreadSchema: JsonSchema = object(
  {
    id: uuid,
    organization_id: uuid,
    slack_team_id: { type: 'string', description: 'The Slack workspace (team) of the organization’s connection' },
    channel_id: { type: 'string' },
    thread_ts: { type: 'string' },
    workspace_id: nullableUuid,
    status: { enum: ['open', 'closed'], description: 'closed: the thread no longer reaches its workspace until a message or an attach opens it again' },
    metadata: slackThreadMetadata,
    last_processed_message_ts: { type: ['string', 'null'], description: 'The ts of the last message forwarded to the workspace; null before the first' },
    created_at: dateTime,
    updated_at: dateTime,
  },
  ['id', 'organization_id', 'slack_team_id', 'channel_id', 'thread_ts', 'workspace_id', 'status', 'metadata', 'last_processed_message_ts', 'created_at', 'updated_at'],
);

export const attachThreadResponse = object(
  { thread: slackThreadSchema, workspace: object({ id: uuid, name: { type: 'string' } }, ['id', 'name']) },
  ['thread', 'workspace'],
);

/** What the receiver answers Slack (any 200 acknowledges a delivery; the fields are for people reading logs). */
export const slackEventAnswer: JsonSchema = {
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    challenge: { type: 'string', description: 'url_verification: the challenge, echoed' },
    duplicate: { type: 'boolean', description: 'The message was delivered before; nothing was done again' },
    routed: { type: 'boolean', description: 'The message went to its thread’s workspace' },
    automations: { type: 'integer', description: 'Slack-triggered automations the message was recorded for' },
    ignored: { type: 'string', description: 'Why the delivery does nothing' },
  },
};

export type AttachThreadInput = BodyOf<typeof attachThreadBody>;
