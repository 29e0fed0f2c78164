/**
 * A local stand-in for Slack, on 127.0.0.1, in both directions:
 *
 * - the Web API methods Hangar calls (`POST /api/{method}`: chat.postMessage, reactions.add,
 *   conversations.replies, users.info, auth.test), authenticated by a bot token (Bearer header,
 *   or `token` in a form body), taking JSON or form bodies, answering `{ok: true, …}` or
 *   `{ok: false, error}` with HTTP 200, and 429 with `Retry-After` when a test asks for it;
 * - Events API deliveries to Hangar, signed as Slack signs them (`X-Slack-Signature`,
 *   `X-Slack-Request-Timestamp`, `X-Slack-Retry-Num` on retries).
 *
 * State (teams, users, channels, messages with their threads and reactions) is kept in memory
 * and open to tests. Each test makes its own team, so tests sharing the fake never collide.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { slackSignature } from '../../src/integrations/slack/signature';
import { createFakeSlackApi, type FakeSlackChannel, type FakeSlackMessage, type FakeSlackState, type FakeSlackTeam, type FakeSlackUser } from './fakeSlackApi';

export type { FakeSlackChannel, FakeSlackMessage, FakeSlackTeam, FakeSlackUser };

export interface FakeSlackCall {
  method: string;
  args: Record<string, unknown>;
  authorization: string | undefined;
  contentType: string | undefined;
  headers: IncomingHttpHeaders;
}

export type FakeSlackFailure = { status: 429; retryAfter: number } | { status: 500 } | { error: string };

export interface Delivered {
  status: number;
  text: string;
  json(): any;
}

export interface FakeSlack {
  /** The Web API base, e.g. http://127.0.0.1:PORT/api (`HANGAR_SLACK_API_URL`). */
  url: string;
  calls: FakeSlackCall[];
  state: FakeSlackState;
  createTeam(): FakeSlackTeam;
  addUser(team: FakeSlackTeam, user: { name: string; email?: string | null; isBot?: boolean }): FakeSlackUser;
  /** A person of another organization (their own team id) who writes in `team`'s shared channels: Slack Connect. */
  addConnectUser(team: FakeSlackTeam, user: { name: string; email?: string | null }): FakeSlackUser;
  addChannel(team: FakeSlackTeam, channel?: { name?: string; type?: FakeSlackChannel['type'] }): FakeSlackChannel;
  /** A person (or another app's bot user) writes in a channel, in a thread with `threadTs`; the message is in the fake's state. */
  write(channel: FakeSlackChannel, message: { user: FakeSlackUser; text: string; threadTs?: string }): FakeSlackMessage;
  /** The `app_mention` or `message` event Slack would send for a message. */
  eventOf(channel: FakeSlackChannel, message: FakeSlackMessage, type?: 'app_mention' | 'message'): Record<string, unknown>;
  /** An `event_callback` envelope around an event. */
  envelope(team: FakeSlackTeam, event: Record<string, unknown>, over?: Record<string, unknown>): Record<string, unknown>;
  /** Signs and POSTs a body to `url` as Slack does; `timestamp` and `secret` override for forgeries. */
  deliver(url: string, team: FakeSlackTeam, body: unknown, options?: { retryNum?: number; timestamp?: number; secret?: string; signature?: string }): Promise<Delivered>;
  /** What the bot posted in a channel (optionally: in one thread), in order. */
  botPosts(channel: FakeSlackChannel, threadTs?: string): FakeSlackMessage[];
  /** The next `count` calls of `method` fail as told. */
  failNext(method: string, count: number, failure: FakeSlackFailure): void;
  close(): Promise<void>;
}

const id = (prefix: string) => prefix + randomBytes(5).toString('hex').toUpperCase().slice(0, 9);

export async function startFakeSlack(): Promise<FakeSlack> {
  const state: FakeSlackState = { teams: new Map(), users: new Map(), channels: new Map(), clock: Math.floor(Date.now() / 1000) * 1_000_000 };
  const calls: FakeSlackCall[] = [];
  const failures: Array<{ method: string; remaining: number; failure: FakeSlackFailure }> = [];
  const api = createFakeSlackApi(state);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake.invalid');
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
      };
      const match = /^\/api\/([a-zA-Z]+\.[a-zA-Z.]+)$/.exec(url.pathname);
      if (!match) return send(404, { ok: false, error: 'unknown_method' });
      const method = match[1]!;
      const contentType = req.headers['content-type'];
      const raw = Buffer.concat(chunks).toString('utf8');
      let args: Record<string, unknown> = Object.fromEntries(url.searchParams);
      if (raw) {
        if (/application\/json/i.test(contentType ?? '')) {
          try {
            args = { ...args, ...(JSON.parse(raw) as Record<string, unknown>) };
          } catch {
            return send(200, { ok: false, error: 'invalid_json' });
          }
        } else if (/application\/x-www-form-urlencoded/i.test(contentType ?? '')) {
          args = { ...args, ...Object.fromEntries(new URLSearchParams(raw)) };
        } else {
          return send(200, { ok: false, error: 'invalid_form_data' });
        }
      }
      calls.push({ method, args, authorization: req.headers.authorization, contentType, headers: req.headers });
      const rule = failures.find((f) => f.method === method && f.remaining > 0);
      if (rule) {
        rule.remaining -= 1;
        if (rule.remaining === 0) failures.splice(failures.indexOf(rule), 1);
        const f = rule.failure;
        if ('error' in f) return send(200, { ok: false, error: f.error });
        if (f.status === 429) return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(f.retryAfter) });
        return send(500, { ok: false, error: 'internal_error' });
      }
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
      send(200, api.call(method, token, args));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const channelOf = (channelId: string) => {
    const channel = state.channels.get(channelId);
    if (!channel) throw new Error(`no channel ${channelId}`);
    return channel;
  };

  return {
    url: `${base}/api`,
    calls,
    state,
    createTeam() {
      const team: FakeSlackTeam = {
        id: id('T'),
        appId: id('A'),
        botToken: `xoxb-${randomBytes(6).toString('hex')}-${randomBytes(12).toString('hex')}`,
        signingSecret: randomBytes(16).toString('hex'),
        botUserId: id('U'),
        botId: id('B'),
      };
      state.teams.set(team.id, team);
      state.users.set(team.botUserId, { id: team.botUserId, teamId: team.id, name: 'hangar', realName: 'Hangar', email: null, isBot: true });
      return team;
    },
    addUser(team, user) {
      const created: FakeSlackUser = { id: id('U'), teamId: team.id, name: user.name, realName: user.name, email: user.email ?? null, isBot: user.isBot ?? false };
      state.users.set(created.id, created);
      return created;
    },
    addConnectUser(team, user) {
      const created: FakeSlackUser = { id: id('U'), teamId: id('T'), connectedTeams: [team.id], name: user.name, realName: user.name, email: user.email ?? null, isBot: false };
      state.users.set(created.id, created);
      return created;
    },
    addChannel(team, channel = {}) {
      const type = channel.type ?? 'channel';
      const created: FakeSlackChannel = { id: id(type === 'im' ? 'D' : type === 'group' ? 'G' : 'C'), teamId: team.id, name: channel.name ?? 'general', type, messages: [] };
      state.channels.set(created.id, created);
      return created;
    },
    write(channel, message) {
      // Another app's bot posts with its bot user and a bot id, as chat.postMessage does.
      return api.store(channel, { user: message.user.id, text: message.text, threadTs: message.threadTs, botId: message.user.isBot ? `B${message.user.id.slice(1)}` : undefined });
    },
    eventOf(channel, message, type = 'message') {
      const event: Record<string, unknown> = {
        type,
        user: message.user,
        text: message.text,
        ts: message.ts,
        event_ts: message.ts,
        channel: channel.id,
        channel_type: channel.type,
        team: channel.teamId,
        client_msg_id: randomBytes(16).toString('hex'),
      };
      // A message from another organization in a shared channel names the author's team (Slack Connect).
      const authorTeam = state.users.get(message.user)?.teamId;
      if (authorTeam && authorTeam !== channel.teamId) Object.assign(event, { team: authorTeam, user_team: authorTeam, source_team: authorTeam });
      if (message.threadTs) event.thread_ts = message.threadTs;
      if (message.botId) event.bot_id = message.botId;
      if (message.subtype) event.subtype = message.subtype;
      return event;
    },
    envelope(team, event, over = {}) {
      return {
        token: 'deprecated-verification-token',
        team_id: team.id,
        api_app_id: team.appId,
        event,
        type: 'event_callback',
        event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
        event_time: Math.floor(Date.now() / 1000),
        authorizations: [{ enterprise_id: null, team_id: team.id, user_id: team.botUserId, is_bot: true, is_enterprise_install: false }],
        is_ext_shared_channel: false,
        event_context: `4-${randomBytes(12).toString('base64url')}`,
        ...over,
      };
    },
    async deliver(url, team, body, options = {}) {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': options.signature ?? slackSignature(options.secret ?? team.signingSecret, timestamp, raw),
      };
      if (options.retryNum !== undefined) {
        headers['x-slack-retry-num'] = String(options.retryNum);
        headers['x-slack-retry-reason'] = 'http_timeout';
      }
      const res = await fetch(url, { method: 'POST', headers, body: raw });
      const text = await res.text();
      return { status: res.status, text, json: () => JSON.parse(text) };
    },
    botPosts(channel, threadTs) {
      const team = state.teams.get(channel.teamId)!;
      return channelOf(channel.id).messages.filter((m) => m.user === team.botUserId && (threadTs === undefined || m.threadTs === threadTs));
    },
    failNext(method, count, failure) {
      failures.push({ method, remaining: count, failure });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
