/**
 * The fake Slack's Web API methods over its in-memory state (test/support/fakeSlack.ts serves
 * them over HTTP). Answers follow Slack's documented shapes and error codes.
 */
export interface FakeSlackUser {
  id: string;
  /** The user's own team: another organization's for a Slack Connect user. */
  teamId: string;
  /** Teams that see this user through a channel shared with them (Slack Connect). */
  connectedTeams?: string[];
  name: string;
  realName: string;
  email: string | null;
  isBot: boolean;
}

export interface FakeSlackMessage {
  ts: string;
  channel: string;
  user: string;
  botId?: string;
  text: string;
  threadTs?: string;
  subtype?: string;
  reactions: Array<{ name: string; users: string[] }>;
}

export interface FakeSlackChannel {
  id: string;
  teamId: string;
  name: string;
  type: 'channel' | 'group' | 'im';
  messages: FakeSlackMessage[];
}

export interface FakeSlackTeam {
  id: string;
  appId: string;
  botToken: string;
  signingSecret: string;
  botUserId: string;
  botId: string;
}

export interface FakeSlackState {
  teams: Map<string, FakeSlackTeam>;
  users: Map<string, FakeSlackUser>;
  channels: Map<string, FakeSlackChannel>;
  /** Microseconds of the last message ts handed out: message timestamps only grow. */
  clock: number;
}

type Args = Record<string, unknown>;
type Answer = Record<string, unknown>;

const fail = (error: string): Answer => ({ ok: false, error });
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);
const bool = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1;
const micros = (ts: string) => {
  const [s, f = '0'] = ts.split('.');
  return Number(s) * 1_000_000 + Number(f.padEnd(6, '0').slice(0, 6));
};

/** The longest text chat.postMessage keeps (Slack truncates beyond it; the fake refuses). */
export const FAKE_SLACK_MAX_TEXT = 40_000;

export function createFakeSlackApi(state: FakeSlackState) {
  function nextTs(): string {
    state.clock = Math.max(state.clock + 1, Date.now() * 1000);
    return `${Math.floor(state.clock / 1_000_000)}.${String(state.clock % 1_000_000).padStart(6, '0')}`;
  }

  function store(channel: FakeSlackChannel, m: { user: string; text: string; threadTs?: string; botId?: string }): FakeSlackMessage {
    const message: FakeSlackMessage = { ts: nextTs(), channel: channel.id, user: m.user, text: m.text, reactions: [] };
    if (m.threadTs) message.threadTs = m.threadTs;
    if (m.botId) message.botId = m.botId;
    channel.messages.push(message);
    return message;
  }

  function wire(channel: FakeSlackChannel, m: FakeSlackMessage): Answer {
    const out: Answer = { type: 'message', user: m.user, text: m.text, ts: m.ts, team: channel.teamId };
    if (m.botId) out.bot_id = m.botId;
    if (m.subtype) out.subtype = m.subtype;
    if (m.threadTs) out.thread_ts = m.threadTs;
    const replies = channel.messages.filter((r) => r.threadTs === m.ts && r.ts !== m.ts);
    if (replies.length > 0) {
      out.thread_ts = m.ts;
      out.reply_count = replies.length;
      out.latest_reply = replies[replies.length - 1]!.ts;
    }
    if (m.reactions.length > 0) out.reactions = m.reactions.map((r) => ({ name: r.name, users: r.users, count: r.users.length }));
    return out;
  }

  function channelFor(team: FakeSlackTeam, channelId: unknown): FakeSlackChannel | null {
    const channel = typeof channelId === 'string' ? state.channels.get(channelId) : undefined;
    return channel && channel.teamId === team.id ? channel : null;
  }

  const methods: Record<string, (team: FakeSlackTeam, args: Args) => Answer> = {
    'auth.test': (team) => ({ ok: true, url: `https://${team.id.toLowerCase()}.slack.com/`, team: 'Fake team', user: 'hangar', team_id: team.id, user_id: team.botUserId, bot_id: team.botId, is_enterprise_install: false }),

    'chat.postMessage': (team, args) => {
      const channel = channelFor(team, args.channel);
      if (!channel) return fail('channel_not_found');
      const text = typeof args.text === 'string' ? args.text : '';
      if (!text.trim() && !args.blocks && !args.attachments) return fail('no_text');
      if (text.length > FAKE_SLACK_MAX_TEXT) return fail('msg_too_long');
      const threadTs = str(args.thread_ts);
      const message = store(channel, { user: team.botUserId, text, threadTs, botId: team.botId });
      return { ok: true, channel: channel.id, ts: message.ts, message: { ...wire(channel, message), app_id: team.appId } };
    },

    'reactions.add': (team, args) => {
      const channel = channelFor(team, args.channel);
      const timestamp = str(args.timestamp);
      const name = str(args.name);
      if (!timestamp || !args.channel) return fail('no_item_specified');
      if (!channel) return fail('channel_not_found');
      if (!name || !/^[a-z0-9_+'-]+$/.test(name)) return fail('invalid_name');
      const message = channel.messages.find((m) => m.ts === timestamp);
      if (!message) return fail('message_not_found');
      let reaction = message.reactions.find((r) => r.name === name);
      if (!reaction) message.reactions.push((reaction = { name, users: [] }));
      if (reaction.users.includes(team.botUserId)) return fail('already_reacted');
      reaction.users.push(team.botUserId);
      return { ok: true };
    },

    'conversations.replies': (team, args) => {
      const ts = str(args.ts);
      if (!args.channel || !ts) return fail('invalid_arguments');
      const channel = channelFor(team, args.channel);
      if (!channel) return fail('channel_not_found');
      const root = channel.messages.find((m) => m.ts === ts);
      if (!root) return fail('thread_not_found');
      const rootTs = root.threadTs ?? root.ts;
      const inclusive = bool(args.inclusive);
      const oldest = str(args.oldest);
      const latest = str(args.latest);
      const inRange = (m: FakeSlackMessage) => {
        const at = micros(m.ts);
        if (oldest !== undefined && (inclusive ? at < micros(oldest) : at <= micros(oldest))) return false;
        if (latest !== undefined && (inclusive ? at > micros(latest) : at >= micros(latest))) return false;
        return true;
      };
      const parent = channel.messages.find((m) => m.ts === rootTs)!;
      // Like Slack, the thread's parent comes first whatever the range.
      const thread = [parent, ...channel.messages.filter((m) => m.threadTs === rootTs && m.ts !== rootTs && inRange(m))];
      const limit = Math.min(Math.max(Number(args.limit ?? 1000) || 1000, 1), 1000);
      const offset = args.cursor ? Number(Buffer.from(String(args.cursor), 'base64').toString('utf8').replace(/^next:/, '')) : 0;
      if (!Number.isInteger(offset) || offset < 0) return fail('invalid_cursor');
      const page = thread.slice(offset, offset + limit);
      const hasMore = offset + limit < thread.length;
      return {
        ok: true,
        messages: page.map((m) => wire(channel, m)),
        has_more: hasMore,
        response_metadata: { next_cursor: hasMore ? Buffer.from(`next:${offset + limit}`).toString('base64') : '' },
      };
    },

    'users.info': (team, args) => {
      const user = typeof args.user === 'string' ? state.users.get(args.user) : undefined;
      // Slack answers for its own members and for people of other organizations in channels shared with it.
      if (!user || (user.teamId !== team.id && !user.connectedTeams?.includes(team.id))) return fail('user_not_found');
      const profile: Answer = { real_name: user.realName, display_name: user.name };
      if (user.email) profile.email = user.email;
      return { ok: true, user: { id: user.id, team_id: user.teamId, name: user.name, real_name: user.realName, deleted: false, is_bot: user.isBot, profile } };
    },
  };

  return {
    store,
    /** One Web API call with the caller's token (Bearer or `token` argument). */
    call(method: string, token: string | undefined, args: Args): Answer {
      const handler = methods[method];
      if (!handler) return fail('unknown_method');
      if (!token) return fail('not_authed');
      const team = [...state.teams.values()].find((t) => t.botToken === token);
      if (!team) return fail('invalid_auth');
      return handler(team, args);
    },
  };
}
