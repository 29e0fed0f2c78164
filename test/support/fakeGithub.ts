/**
 * A local stand-in for the slice of GitHub's REST API Hangar uses, on 127.0.0.1: App
 * installation tokens (`POST /app/installations/:id/access_tokens`, checking the App JWT
 * against a key pair made at start), check runs (create, list by commit, update),
 * repository contents (`./fakeGithubContents.ts`, for skills) and pull requests with the App's
 * repository installations (`./fakeGithubPulls.ts`). Requests and answers follow
 * GitHub's shapes; state lives in memory and is open to tests.
 */
import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeContents, type FakeContents } from './fakeGithubContents';
import { createFakeIssues, type FakeIssues } from './fakeGithubIssues';
import { createFakePulls, type FakePulls } from './fakeGithubPulls';

/** A check run as the fake keeps it. */
export interface FakeCheckRun {
  id: number;
  repository: string;
  name: string;
  head_sha: string;
  external_id: string | null;
  status: string;
  conclusion: string | null;
  output: unknown;
  started_at: string | null;
  completed_at: string | null;
  details_url: string | null;
}

/** One request as received; `body` is the parsed JSON (the raw text when it was not JSON). */
export interface FakeGithubCall {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
  headers: IncomingHttpHeaders;
}

export interface FakeGithub {
  /** Base URL, e.g. http://127.0.0.1:PORT. */
  url: string;
  appId: string;
  /** The App's private key (RSA 2048, made at start); the server checks JWTs with its public half. */
  privateKeyPem: string;
  calls: FakeGithubCall[];
  checkRuns: Map<number, FakeCheckRun>;
  /** Repository files served by the contents API; put a tree under `owner/repo/path`. */
  contents: FakeContents;
  /** Issue comments and reactions made through the API (`./fakeGithubIssues.ts`). */
  issues: FakeIssues;
  /** Pull requests served by the pulls API (putting one installs the App on its repository). */
  pulls: FakePulls;
  /**
   * Make the next N requests matching (method, path prefix) answer with `status`. A 403 or 429
   * is a rate limit (`x-ratelimit-remaining: 0`); anything else a plain error body.
   */
  failNext(count: number, status: number, match?: { method?: string; pathPrefix?: string }): void;
  close(): Promise<void>;
}

const DOCS = 'https://docs.github.com/rest';
const API_VERSIONS = new Set(['2022-11-28']);
const SUMMARY_MAX_LENGTH = 65_535;
const STATUSES = new Set(['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending']);
const CONCLUSIONS = new Set(['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required', 'stale']);

interface FailRule {
  remaining: number;
  status: number;
  method?: string;
  pathPrefix?: string;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Fields = Record<string, unknown>;

const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });
const notFound = (): Reply => reply(404, { message: 'Not Found', documentation_url: DOCS });
const invalid = (errors: unknown[]): Reply => reply(422, { message: 'Invalid request.', errors, documentation_url: DOCS });
const nowIso = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Starts the fake; `staticToken` is also accepted on the Checks endpoints, like a PAT. */
export async function startFakeGithub(options: { staticToken?: string } = {}): Promise<FakeGithub> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const appId = String(100_000 + Math.floor(Math.random() * 900_000));
  const calls: FakeGithubCall[] = [];
  const checkRuns = new Map<number, FakeCheckRun>();
  const failRules: FailRule[] = [];
  /** Installation tokens issued, to the installation they belong to. */
  const issued = new Map<string, number>();
  let nextRunId = 4_000_000_001;
  let baseUrl = '';
  const fakeContents = createFakeContents(() => baseUrl);
  const fakeIssues = createFakeIssues(() => baseUrl);
  const fakePulls = createFakePulls(() => baseUrl);

  const htmlUrl = (run: FakeCheckRun) => `https://github.com/${run.repository}/runs/${run.id}`;
  const wire = (run: FakeCheckRun) => {
    const output = (run.output ?? {}) as Fields;
    return {
      id: run.id,
      name: run.name,
      head_sha: run.head_sha,
      external_id: run.external_id,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.started_at,
      completed_at: run.completed_at,
      url: `${baseUrl}/repos/${run.repository}/check-runs/${run.id}`,
      html_url: htmlUrl(run),
      details_url: run.details_url ?? htmlUrl(run),
      output: {
        title: output.title ?? null,
        summary: output.summary ?? null,
        text: output.text ?? null,
        annotations_count: 0,
        annotations_url: `${baseUrl}/repos/${run.repository}/check-runs/${run.id}/annotations`,
      },
      pull_requests: [],
    };
  };

  /** The App JWT's problems, or null when it is sound: RS256, signed by our key, iss, iat and exp. */
  function jwtProblem(token: string, key: KeyObject): string | null {
    const parts = token.split('.');
    if (parts.length !== 3) return 'not three parts';
    let header: Fields;
    let claims: Fields;
    try {
      header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as Fields;
      claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Fields;
    } catch {
      return 'undecodable';
    }
    if (header.alg !== 'RS256') return 'alg';
    if (!verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2], 'base64url'))) return 'signature';
    const now = Math.floor(Date.now() / 1000);
    if (String(claims.iss) !== appId) return 'iss';
    if (typeof claims.iat !== 'number' || claims.iat > now + 60) return 'iat';
    if (typeof claims.exp !== 'number' || claims.exp <= now) return 'exp';
    // GitHub refuses a JWT that lives longer than ten minutes.
    if (claims.exp - claims.iat > 600) return 'lifetime';
    return null;
  }

  function checksAuthorized(authorization: string | undefined): boolean {
    const match = /^(?:Bearer|token) (.+)$/.exec(authorization ?? '');
    if (!match) return false;
    return issued.has(match[1]) || (options.staticToken !== undefined && match[1] === options.staticToken);
  }

  function validateOutput(output: unknown, errors: unknown[]): void {
    if (output === undefined) return;
    const o = output as Fields | null;
    if (!o || typeof o !== 'object') return void errors.push({ resource: 'CheckRun', field: 'output', code: 'invalid' });
    for (const field of ['title', 'summary']) {
      if (typeof o[field] !== 'string') errors.push({ resource: 'CheckRun', field: `output.${field}`, code: 'missing_field' });
    }
    if (typeof o.summary === 'string' && o.summary.length > SUMMARY_MAX_LENGTH) {
      errors.push({ resource: 'CheckRun', field: 'output.summary', code: 'custom', message: `summary is too long (maximum is ${SUMMARY_MAX_LENGTH} characters)` });
    }
  }

  /** Status and conclusion as GitHub settles them: a conclusion implies `completed`, which needs one. */
  function settle(status: unknown, conclusion: unknown, errors: unknown[]): { status?: string; conclusion?: string } {
    if (status !== undefined && (typeof status !== 'string' || !STATUSES.has(status))) errors.push({ resource: 'CheckRun', field: 'status', code: 'invalid' });
    if (conclusion !== undefined && (typeof conclusion !== 'string' || !CONCLUSIONS.has(conclusion))) errors.push({ resource: 'CheckRun', field: 'conclusion', code: 'invalid' });
    const settled = { status: conclusion !== undefined ? 'completed' : (status as string | undefined), conclusion: conclusion as string | undefined };
    if (settled.status === 'completed' && settled.conclusion === undefined) errors.push({ resource: 'CheckRun', field: 'conclusion', code: 'missing_field' });
    return settled;
  }

  function createRun(repository: string, body: Fields): Reply {
    const errors: unknown[] = [];
    if (typeof body.name !== 'string' || !body.name) errors.push({ resource: 'CheckRun', field: 'name', code: 'missing_field' });
    if (typeof body.head_sha !== 'string' || !body.head_sha) errors.push({ resource: 'CheckRun', field: 'head_sha', code: 'missing_field' });
    const { status, conclusion } = settle(body.status, body.conclusion, errors);
    validateOutput(body.output, errors);
    if (errors.length > 0) return invalid(errors);

    const finalStatus = status ?? 'queued';
    const run: FakeCheckRun = {
      id: nextRunId++,
      repository,
      name: body.name as string,
      head_sha: body.head_sha as string,
      external_id: typeof body.external_id === 'string' ? body.external_id : null,
      status: finalStatus,
      conclusion: conclusion ?? null,
      output: body.output ?? null,
      started_at: typeof body.started_at === 'string' ? body.started_at : nowIso(),
      completed_at: finalStatus === 'completed' ? (typeof body.completed_at === 'string' ? body.completed_at : nowIso()) : null,
      details_url: typeof body.details_url === 'string' ? body.details_url : null,
    };
    checkRuns.set(run.id, run);
    return reply(201, wire(run));
  }

  function updateRun(run: FakeCheckRun, body: Fields): Reply {
    const errors: unknown[] = [];
    if (body.name !== undefined && (typeof body.name !== 'string' || !body.name)) errors.push({ resource: 'CheckRun', field: 'name', code: 'invalid' });
    const { status, conclusion } = settle(body.status, body.conclusion, errors);
    validateOutput(body.output, errors);
    if (errors.length > 0) return invalid(errors);

    if (typeof body.name === 'string') run.name = body.name;
    if (typeof body.external_id === 'string') run.external_id = body.external_id;
    if (typeof body.details_url === 'string') run.details_url = body.details_url;
    if (typeof body.started_at === 'string') run.started_at = body.started_at;
    if (body.output !== undefined) run.output = body.output;
    if (status !== undefined) run.status = status;
    if (conclusion !== undefined) run.conclusion = conclusion;
    if (run.status === 'completed') run.completed_at = typeof body.completed_at === 'string' ? body.completed_at : (run.completed_at ?? nowIso());
    return reply(200, wire(run));
  }

  function listRuns(repository: string, ref: string, query: URLSearchParams): Reply {
    const name = query.get('check_name');
    const filter = query.get('filter') ?? 'latest';
    const perPage = Math.min(Math.max(Number(query.get('per_page') ?? 30) || 30, 1), 100);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);

    // Newest first, like GitHub; `latest` keeps only the newest run of each name.
    let runs = [...checkRuns.values()]
      .filter((run) => run.repository === repository && run.head_sha === ref && (name === null || run.name === name))
      .sort((a, b) => b.id - a.id);
    if (filter === 'latest') runs = runs.filter((run, i) => runs.findIndex((other) => other.name === run.name) === i);
    else if (filter !== 'all') return invalid([{ resource: 'CheckRun', field: 'filter', code: 'invalid' }]);
    return reply(200, { total_count: runs.length, check_runs: runs.slice((page - 1) * perPage, page * perPage).map(wire) });
  }

  function route(method: string, url: URL, body: unknown, headers: IncomingHttpHeaders): Reply {
    const version = headers['x-github-api-version'];
    if (typeof version === 'string' && !API_VERSIONS.has(version)) {
      return reply(400, { message: `API version ${version} is not supported.`, documentation_url: DOCS });
    }
    const path = url.pathname;
    const segment = (s: string) => decodeURIComponent(s);

    const mint = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
    if (mint) {
      if (method !== 'POST') return notFound();
      const jwt = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
      if (!jwt || jwtProblem(jwt, publicKey) !== null) {
        return reply(401, { message: 'A JSON web token could not be decoded', documentation_url: DOCS });
      }
      const token = `ghs_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;
      issued.set(token, Number(mint[1]));
      const expiresAt = new Date(Date.now() + 60 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return reply(201, { token, expires_at: expiresAt, permissions: { checks: 'write' }, repository_selection: 'all' });
    }

    // Contents are public: no credentials is fine, a token must be one the fake knows.
    const contents = fakeContents.route(method, path, headers.authorization === undefined ? null : checksAuthorized(headers.authorization));
    if (contents) return reply(contents.status, contents.body);
    const issues = fakeIssues.route(method, path, body, checksAuthorized(headers.authorization));
    if (issues) return reply(issues.status, issues.body);

    const pulls = fakePulls.route(method, path, () => {
      const bearer = /^(?:Bearer|token) (.+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
      return { app: jwtProblem(bearer, publicKey) === null, installationId: issued.get(bearer) ?? null, staticToken: options.staticToken !== undefined && bearer === options.staticToken };
    });
    if (pulls) return reply(pulls.status, pulls.body);

    const checks = /^\/repos\/([^/]+)\/([^/]+)\/(check-runs(?:\/(\d+))?|commits\/([^/]+)\/check-runs)$/.exec(path);
    if (!checks) return notFound();
    if (!checksAuthorized(headers.authorization)) return reply(401, { message: 'Bad credentials', documentation_url: DOCS });
    const repository = `${segment(checks[1])}/${segment(checks[2])}`;
    const fields = (body && typeof body === 'object' ? body : {}) as Fields;

    if (checks[5] !== undefined) return method === 'GET' ? listRuns(repository, segment(checks[5]), url.searchParams) : notFound();
    if (checks[4] === undefined) return method === 'POST' ? createRun(repository, fields) : notFound();
    const run = checkRuns.get(Number(checks[4]));
    if (!run || run.repository !== repository) return notFound();
    if (method === 'GET') return reply(200, wire(run));
    if (method === 'PATCH') return updateRun(run, fields);
    return notFound();
  }

  function takeFailure(method: string, path: string): FailRule | null {
    const rule = failRules.find((r) => r.remaining > 0 && (!r.method || r.method === method) && (!r.pathPrefix || path.startsWith(r.pathPrefix)));
    if (!rule) return null;
    rule.remaining -= 1;
    if (rule.remaining === 0) failRules.splice(failRules.indexOf(rule), 1);
    return rule;
  }

  function failure(status: number): Reply {
    const rateLimited = status === 403 || status === 429;
    const headers: Record<string, string> = rateLimited ? { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60) } : {};
    const message = rateLimited ? 'API rate limit exceeded for installation.' : status >= 500 ? 'Server Error' : 'Request failed';
    return reply(status, { message, documentation_url: DOCS }, headers);
  }

  const send = (res: ServerResponse, answer: Reply) => {
    if (res.destroyed) return;
    res.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-api-version-selected': '2022-11-28',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      ...answer.headers,
    });
    res.end(JSON.stringify(answer.body));
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = req.method ?? '';
      const path = req.url ?? '';
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      let malformed = false;
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
          malformed = true;
        }
      }
      const failed = takeFailure(method, path);
      calls.push({ method, path, body, authorization: req.headers.authorization, headers: req.headers });
      if (failed) return send(res, failure(failed.status));
      if (malformed) return send(res, reply(400, { message: 'Problems parsing JSON', documentation_url: DOCS }));
      send(res, route(method, new URL(path, 'http://fake.invalid'), body, req.headers));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    appId,
    privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    calls,
    checkRuns,
    contents: fakeContents.contents,
    issues: fakeIssues.state,
    pulls: fakePulls.pulls,
    failNext(count, status, match = {}) {
      failRules.push({ remaining: count, status, method: match.method, pathPrefix: match.pathPrefix });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
