/**
 * A local stand-in for the slice of GitLab's REST API (v4) Hangar uses, on 127.0.0.1: notes on
 * issues and merge requests (`POST|GET /projects/:id/issues/:iid/notes`,
 * `/projects/:id/merge_requests/:iid/notes`) and award emoji on them and on their notes
 * (`POST …/award_emoji`, `POST …/notes/:note_id/award_emoji`). `PRIVATE-TOKEN` must be the token
 * the fake was started with or one a test added (`acceptToken`: another organization's access
 * token); `:id` is a project id or its URL-encoded path, as GitLab accepts.
 * Shapes follow GitLab's answers; state lives in memory and is open to tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitlabNote {
  id: number;
  /** The `:id` the call named, decoded: "4242" or "group/project". */
  project: string;
  noteable: 'issue' | 'merge_request';
  iid: number;
  body: string;
}

export interface FakeGitlabAward {
  id: number;
  project: string;
  /** `issue:3`, `merge_request:3`, `note:17`. */
  awardable: string;
  name: string;
}

export interface FakeGitlabCall {
  method: string;
  path: string;
  body: unknown;
  token: string | undefined;
}

export interface FakeGitlab {
  /** API base including `/api/v4`. */
  apiUrl: string;
  token: string;
  calls: FakeGitlabCall[];
  notes: FakeGitlabNote[];
  awards: FakeGitlabAward[];
  /** Accepts another access token from now on (each call records the token it carried). */
  acceptToken(token: string): void;
  close(): Promise<void>;
}

/** The bot user the token belongs to. */
const BOT = { id: 9001, username: 'hangar', name: 'Hangar', state: 'active', avatar_url: null, web_url: 'https://gitlab.com/hangar' };

export async function startFakeGitlab(options: { token?: string } = {}): Promise<FakeGitlab> {
  const token = options.token ?? 'glpat-fake-gitlab-token';
  const calls: FakeGitlabCall[] = [];
  const notes: FakeGitlabNote[] = [];
  const awards: FakeGitlabAward[] = [];
  const tokens = new Set([token]);
  let nextId = 300_001;

  const wireNote = (n: FakeGitlabNote) => ({
    id: n.id,
    type: null,
    body: n.body,
    attachment: null,
    author: BOT,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    system: false,
    noteable_id: n.iid + 100_000,
    noteable_type: n.noteable === 'issue' ? 'Issue' : 'MergeRequest',
    noteable_iid: n.iid,
    project_id: Number.isInteger(Number(n.project)) ? Number(n.project) : 4242,
    resolvable: false,
    confidential: false,
    internal: false,
  });

  function route(method: string, path: string, body: unknown): { status: number; body: unknown } {
    const m = /^\/api\/v4\/projects\/([^/]+)\/(issues|merge_requests)\/(\d+)\/(notes|award_emoji|notes\/(\d+)\/award_emoji)$/.exec(path);
    if (!m) return { status: 404, body: { message: '404 Not Found' } };
    const project = decodeURIComponent(m[1]!);
    const noteable = m[2] === 'issues' ? 'issue' : 'merge_request';
    const iid = Number(m[3]);
    const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;

    if (m[4] === 'notes') {
      if (method === 'GET') return { status: 200, body: notes.filter((n) => n.project === project && n.noteable === noteable && n.iid === iid).map(wireNote) };
      if (method !== 'POST') return { status: 405, body: { message: '405 Method Not Allowed' } };
      if (typeof fields.body !== 'string' || !fields.body.trim()) return { status: 400, body: { message: { note: ["can't be blank"] } } };
      const note: FakeGitlabNote = { id: nextId++, project, noteable, iid, body: fields.body };
      notes.push(note);
      return { status: 201, body: wireNote(note) };
    }

    if (method !== 'POST') return { status: 405, body: { message: '405 Method Not Allowed' } };
    if (typeof fields.name !== 'string' || !fields.name) return { status: 400, body: { error: 'name is missing' } };
    const awardable = m[5] ? `note:${m[5]}` : `${noteable}:${iid}`;
    // Notes written by people exist only on the real GitLab: the fake accepts awards on any note id.
    if (awards.some((a) => a.project === project && a.awardable === awardable && a.name === fields.name)) {
      return { status: 404, body: { message: '404 Award Emoji Name has already been taken Not Found' } };
    }
    const award: FakeGitlabAward = { id: nextId++, project, awardable, name: fields.name };
    awards.push(award);
    return {
      status: 201,
      body: { id: award.id, name: award.name, user: BOT, created_at: new Date().toISOString(), updated_at: new Date().toISOString(), awardable_id: iid, awardable_type: m[5] ? 'Note' : noteable === 'issue' ? 'Issue' : 'MergeRequest' },
    };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const path = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
      const sent = req.headers['private-token'];
      calls.push({ method: req.method ?? '', path, body, token: typeof sent === 'string' ? sent : undefined });
      const answer = typeof sent !== 'string' || !tokens.has(sent) ? { status: 401, body: { message: '401 Unauthorized' } } : route(req.method ?? '', path, body);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${url}/api/v4`,
    token,
    calls,
    notes,
    awards,
    acceptToken: (another) => void tokens.add(another),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
