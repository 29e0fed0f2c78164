/**
 * The slice of Slack's Web API Hangar calls, over `fetch`. Every method is `POST {apiUrl}/{method}`
 * with the bot token as a Bearer header: write methods take JSON, read methods a form (Slack
 * documents JSON bodies only for write methods). Slack answers HTTP 200 with `{ok: false, error}`
 * for most failures, and 429 with `Retry-After` (seconds) when a method's rate tier is exceeded:
 * that wait is honoured here, within a bound, so a burst of replies slows down instead of failing.
 */

export interface SlackWebApiOptions {
  /** `https://slack.com/api`, or a local fake. */
  apiUrl: string;
  /** Per request. */
  timeoutMs?: number;
  /** A rate-limited call waits `Retry-After` and tries again, up to this many attempts in all. */
  maxAttempts?: number;
  /** A `Retry-After` longer than this is not waited out: the call fails (retryable) instead. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** A Web API failure: Slack's error code (`channel_not_found`, `ratelimited`, `http_503`, `network`). */
export class SlackApiError extends Error {
  override name = 'SlackApiError';
  constructor(
    readonly method: string,
    readonly code: string,
    /** Worth trying again later (rate limits, Slack's 5xx, the network); not for bad input or auth. */
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(`Slack ${method} failed: ${code}`);
  }
}

export interface SlackApiMessage {
  type?: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
}

export interface SlackUser {
  id: string;
  name: string | null;
  realName: string | null;
  email: string | null;
  isBot: boolean;
  /** The user's own team: another organization's for a person met through a shared channel (Slack Connect) or a stranger. */
  teamId: string | null;
}

type Args = Record<string, string | number | boolean | undefined | null>;

const WRITE_METHODS = new Set(['chat.postMessage', 'reactions.add']);
/** Replies are read in pages of this many messages, and at most this many pages per call. */
const PAGE_SIZE = 200;
const MAX_PAGES = 25;

export function createSlackWebApi(options: SlackWebApiOptions) {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxAttempts = options.maxAttempts ?? 3;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 10_000;

  function encode(method: string, args: Args): { body: string; contentType: string } {
    const present = Object.entries(args).filter(([, v]) => v !== undefined && v !== null) as Array<[string, string | number | boolean]>;
    if (WRITE_METHODS.has(method)) return { body: JSON.stringify(Object.fromEntries(present)), contentType: 'application/json; charset=utf-8' };
    return { body: new URLSearchParams(present.map(([k, v]): [string, string] => [k, String(v)])).toString(), contentType: 'application/x-www-form-urlencoded' };
  }

  async function once(token: string, method: string, args: Args): Promise<Record<string, unknown>> {
    const { body, contentType } = encode(method, args);
    let res: Response;
    try {
      res = await doFetch(`${apiUrl}/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new SlackApiError(method, 'network', true);
    }
    if (res.status === 429) {
      const seconds = Number(res.headers.get('retry-after'));
      await res.body?.cancel();
      throw new SlackApiError(method, 'ratelimited', true, Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000);
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw new SlackApiError(method, `http_${res.status}`, true);
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      throw new SlackApiError(method, `http_${res.status}`, res.status >= 500);
    }
    const answer = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
    if (answer.ok !== true) {
      const code = typeof answer.error === 'string' ? answer.error : `http_${res.status}`;
      throw new SlackApiError(method, code, code === 'ratelimited' || code === 'internal_error' || code === 'service_unavailable' || code === 'request_timeout');
    }
    return answer;
  }

  /** One Web API call; a rate limit is waited out (bounded), everything else is the caller's. */
  async function call(token: string, method: string, args: Args = {}): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(token, method, args);
      } catch (err) {
        const wait = err instanceof SlackApiError && err.code === 'ratelimited' ? err.retryAfterMs : null;
        if (wait === null || attempt >= maxAttempts || wait > maxRetryAfterMs) throw err;
        await sleep(wait);
      }
    }
  }

  return {
    call,

    /** Posts in a channel, in a thread when `threadTs` is set; the new message's ts. */
    async postMessage(token: string, message: { channel: string; text: string; threadTs?: string | null }): Promise<{ ts: string }> {
      const answer = await call(token, 'chat.postMessage', {
        channel: message.channel,
        text: message.text,
        thread_ts: message.threadTs ?? undefined,
        // Workspace and pull-request links would otherwise unfurl into large previews.
        unfurl_links: false,
        unfurl_media: false,
      });
      return { ts: String(answer.ts ?? '') };
    },

    /** Adds the bot's reaction; one it already placed is fine. */
    async addReaction(token: string, reaction: { channel: string; timestamp: string; name: string }): Promise<void> {
      try {
        await call(token, 'reactions.add', reaction);
      } catch (err) {
        if (!(err instanceof SlackApiError && err.code === 'already_reacted')) throw err;
      }
    },

    /**
     * A thread's messages in order, the root first: all of them, or those after `oldest`
     * (exclusive). Slack returns the root even when it is older than `oldest`; callers filter.
     */
    async replies(token: string, thread: { channel: string; ts: string; oldest?: string | null }): Promise<SlackApiMessage[]> {
      const messages: SlackApiMessage[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await call(token, 'conversations.replies', {
          channel: thread.channel,
          ts: thread.ts,
          oldest: thread.oldest ?? undefined,
          inclusive: thread.oldest ? false : undefined,
          limit: PAGE_SIZE,
          cursor,
        });
        if (Array.isArray(answer.messages)) messages.push(...(answer.messages as SlackApiMessage[]).filter((m) => m && typeof m.ts === 'string'));
        const next = (answer.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor;
        if (answer.has_more !== true || typeof next !== 'string' || next === '') break;
        cursor = next;
      }
      return messages;
    },

    /** A member's profile; `email` needs the `users:read.email` scope (null without it). */
    async userInfo(token: string, userId: string): Promise<SlackUser> {
      const answer = await call(token, 'users.info', { user: userId });
      const user = (answer.user ?? {}) as { id?: string; team_id?: string; name?: string; real_name?: string; is_bot?: boolean; profile?: { email?: string; real_name?: string } };
      const email = user.profile?.email;
      return {
        id: user.id ?? userId,
        name: user.name ?? null,
        realName: user.real_name ?? user.profile?.real_name ?? null,
        email: typeof email === 'string' && email.includes('@') ? email : null,
        isBot: user.is_bot === true,
        teamId: typeof user.team_id === 'string' && user.team_id !== '' ? user.team_id : null,
      };
    },

    /** Who the token is: the bot's user id (to tell its own messages apart) and its team. */
    async authTest(token: string): Promise<{ userId: string; teamId: string; botId: string | null }> {
      const answer = await call(token, 'auth.test');
      return { userId: String(answer.user_id ?? ''), teamId: String(answer.team_id ?? ''), botId: typeof answer.bot_id === 'string' ? answer.bot_id : null };
    },
  };
}

export type SlackWebApi = ReturnType<typeof createSlackWebApi>;
