/**
 * Unauthenticated receivers and body limits (issue 13, "limits with clear answers"): a delivery
 * the headers already condemn is answered before its body is sent, a signature is checked as
 * the body streams in, bodies stop at their route's limit, unverified bodies are read only a
 * few at a time, and every refusal carries the Error body and closes the connection.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import { silentLogger } from '../../../src/logger';
import { buildApi, type ApiProcess } from '../../../src/processes';
import { connectGitlab, githubPullRequest, signGithub } from '../../support/codeHosting';
import { GITLAB_WEBHOOK_TOKEN, harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { until } from '../../support/wait';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error?: string; details?: string | null; [key: string]: unknown };
}

/** A POST whose body the test sends piece by piece (or never finishes). */
function exchange(baseUrl: string, path: string, headers: Record<string, string | number>) {
  const req = http.request(new URL(path, baseUrl), { method: 'POST', headers, agent: false });
  // The server may close while the body is still going out; the answer is what matters.
  req.on('error', () => undefined);
  let answered = false;
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        answered = true;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} });
      });
    });
  });
  const closed = new Promise<void>((resolve) => req.once('socket', (socket) => socket.once('close', () => resolve())));
  req.flushHeaders();
  return {
    req,
    answer,
    closed,
    answered: () => answered,
    write: (chunk: Buffer | string) => req.write(chunk),
    end: (chunk?: Buffer | string) => new Promise<void>((resolve) => req.end(chunk, resolve)),
  };
}

/** Writes `chunk` until the server answers (or `max` bytes went out); returns the bytes written. */
async function writeUntilAnswered(x: ReturnType<typeof exchange>, chunk: Buffer, max: number): Promise<number> {
  let sent = 0;
  while (!x.answered() && sent < max) {
    sent += chunk.length;
    if (!x.write(chunk)) await Promise.race([once(x.req, 'drain'), x.answer]);
  }
  return sent;
}

function expectErrorBody(answer: RawAnswer, status: number, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).to.equal(status);
  expect(answer.body.error, what).to.be.a('string');
  expect(answer.body, what).to.have.property('details');
}

const json = { 'content-type': 'application/json' };
const wellFormedGithub = { ...json, 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };
const slackSigned = () => ({ ...json, 'x-slack-signature': `v0=${'0'.repeat(64)}`, 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) });
const MiB = 1024 * 1024;

describe('receivers and body limits', () => {
  it('answers a delivery its headers condemn before its body is sent, with the Error body, and closes the connection', async () => {
    const huge = 10 * MiB;
    const gitlab = await connectGitlab((await newOrg('receivers-gitlab')).org_api_key);
    // The deployment-wide token is refused only among several organizations: make sure there
    // are (run alone, this file's organization may be the database's only one).
    await newOrg('receivers-gitlab-neighbour');
    const cases: Array<[string, string, Record<string, string | number>, number]> = [
      ['GitHub, no signature', '/v1/webhooks/github', { ...json, 'x-github-event': 'push', 'content-length': huge }, 401],
      ['GitHub, a signature that is not sha256=<hex>', '/v1/webhooks/github', { ...json, 'x-hub-signature-256': 'sha1=abc', 'content-length': huge }, 401],
      ['GitHub, not JSON nor a form', '/v1/webhooks/github', { ...wellFormedGithub, 'content-type': 'text/plain', 'content-length': huge }, 415],
      ['GitHub, declared over 25 MiB', '/v1/webhooks/github', { ...wellFormedGithub, 'content-length': 26 * MiB }, 413],
      ['GitLab, a wrong token', '/v1/webhooks/gitlab', { ...json, 'x-gitlab-token': 'wrong', 'content-length': huge }, 401],
      ['GitLab, the deployment token among several organizations', '/v1/webhooks/gitlab', { ...json, 'x-gitlab-token': GITLAB_WEBHOOK_TOKEN, 'content-length': huge }, 401],
      ['GitLab, not JSON', '/v1/webhooks/gitlab', { 'content-type': 'text/plain', 'x-gitlab-token': gitlab.token, 'content-length': huge }, 415],
      ['Slack, unsigned', '/v1/webhooks/slack', { ...json, 'content-length': huge }, 401],
      ['Slack, stale', '/v1/webhooks/slack', { ...slackSigned(), 'x-slack-request-timestamp': '1000', 'content-length': huge }, 401],
      ['Linear, unsigned', '/v1/webhooks/linear', { ...json, 'content-length': huge }, 401],
      ['Sentry, unsigned', '/v1/webhooks/sentry', { ...json, 'content-length': huge }, 401],
      ['custom webhook, unknown token', `/v1/automations/webhook/${randomUUID()}`, { ...json, 'content-length': 200_000 }, 404],
      ['custom webhook, declared over 256 KiB', `/v1/automations/webhook/${randomUUID()}`, { ...json, 'content-length': huge }, 413],
      ['a JSON operation without a key', '/v1/environments', { ...json, 'content-length': huge }, 401],
    ];
    for (const [what, path, headers, status] of cases) {
      const x = exchange(harness().baseUrl, path, headers);
      x.write('{"zen":"');
      const answer = await x.answer;
      expectErrorBody(answer, status, what);
      expect(answer.headers.connection, what).to.equal('close');
      await x.closed;
      expect(x.req.writableEnded, `${what}: the body was never finished`).to.equal(false);
    }
    const overLimit = exchange(harness().baseUrl, '/v1/webhooks/github', { ...wellFormedGithub, 'content-length': 26 * MiB });
    expect((await overLimit.answer).body.details).to.equal('the limit for this operation is 26214400 bytes (25 MiB)');
  });

  it('checks a streamed body against its signature: a wrong one is a 401 that closes the connection, a right one is accepted', async () => {
    const pull = githubPullRequest({ fullName: `nobody-${randomUUID()}/widgets`, number: 1, action: 'opened', title: 'x'.repeat(2 * MiB) });
    const raw = Buffer.from(JSON.stringify(pull));
    const sendInPieces = async (signature: string) => {
      // Chunked, no Content-Length: the size is learnt while reading, past the part kept in memory.
      const x = exchange(harness().baseUrl, '/v1/webhooks/github', { ...json, 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signature });
      for (let offset = 0; offset < raw.length; offset += 300 * 1024) x.write(raw.subarray(offset, offset + 300 * 1024));
      await x.end();
      return x;
    };

    const forged = await sendInPieces(signGithub(JSON.stringify({ ...pull, number: 2 })));
    const refused = await forged.answer;
    expectErrorBody(refused, 401, 'a wrong signature');
    expect(refused.body.details).to.equal('X-Hub-Signature-256 does not match the body');
    expect(refused.headers.connection).to.equal('close');
    await forged.closed;

    const genuine = await sendInPieces(signGithub(raw.toString('utf8')));
    const accepted = await genuine.answer;
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    expect(accepted.body).to.deep.include({ accepted: true, matched: 0, duplicate: false });

    // GitHub's form content type, signed over the form.
    const form = `payload=${encodeURIComponent(JSON.stringify({ zen: 'Keep it simple.', hook_id: 1 }))}`;
    const ping = exchange(harness().baseUrl, '/v1/webhooks/github', {
      'content-type': 'application/x-www-form-urlencoded',
      'x-github-event': 'ping',
      'x-hub-signature-256': signGithub(form),
    });
    await ping.end(form);
    expect((await ping.answer).body).to.deep.include({ accepted: true, matched: 0 });
  });

  describe('on an API with small limits', () => {
    let api: ApiProcess;
    let server: Server;
    let baseUrl: string;

    before(async () => {
      const h = harness();
      const config = loadConfig({
        ...h.env,
        HANGAR_MAX_UNVERIFIED_BODIES: '2',
        HANGAR_CODE_HOSTING_BODY_LIMIT_BYTES: String(64 * 1024),
        HANGAR_BODY_LIMIT_BYTES: '4096',
        HANGAR_MESSAGE_BODY_LIMIT_BYTES: String(64 * 1024),
      });
      api = await buildApi({ config, logger: silentLogger, database: h.database, temporalAddress: h.temporal.address });
      server = await api.listen(0, '127.0.0.1');
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    after(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
    });

    it('stops reading a delivery at the limit and answers 413 while it is still being sent', async () => {
      const x = exchange(baseUrl, '/v1/webhooks/github', wellFormedGithub);
      const sent = await writeUntilAnswered(x, Buffer.alloc(16 * 1024, 'a'), 8 * MiB);
      const answer = await x.answer;
      expectErrorBody(answer, 413, 'over the limit');
      expect(answer.body.details).to.equal('the limit for this operation is 65536 bytes (64 KiB)');
      expect(answer.headers.connection).to.equal('close');
      await x.closed;
      expect(sent, 'bytes sent before the answer').to.be.below(8 * MiB);
      expect(x.req.writableEnded).to.equal(false);
    });

    it('reads only so many unverified bodies at once: past the cap, 503 with Retry-After before reading', async () => {
      const held = [exchange(baseUrl, '/v1/webhooks/github', wellFormedGithub), exchange(baseUrl, '/v1/webhooks/github', wellFormedGithub)];
      for (const x of held) x.write('{"zen":"');
      const probe = async () => {
        const x = exchange(baseUrl, '/v1/webhooks/github', wellFormedGithub);
        await x.end('{}');
        return x.answer;
      };
      // The held deliveries take both slots as soon as their headers are in.
      const full = await until('both slots to be taken', async () => {
        const answer = await probe();
        return answer.status === 503 ? answer : undefined;
      });
      expectErrorBody(full, 503, 'past the cap');
      expect(full.headers['retry-after']).to.equal('5');
      expect(full.body.details).to.match(/at most 2 webhook bodies awaiting verification/);
      expect(full.headers.connection).to.equal('close');
      // Slack's deliveries share the cap.
      const slack = exchange(baseUrl, '/v1/webhooks/slack', { ...slackSigned(), 'content-length': 100_000 });
      slack.write('{');
      expectErrorBody(await slack.answer, 503, 'Slack past the cap');

      for (const x of held) await x.end('"}');
      for (const x of held) expectErrorBody(await x.answer, 401, 'a held delivery, finished with a wrong signature');
      const ping = JSON.stringify({ zen: 'Keep it simple.', hook_id: 1 });
      const after = exchange(baseUrl, '/v1/webhooks/github', { ...json, 'x-github-event': 'ping', 'x-hub-signature-256': signGithub(ping) });
      await after.end(ping);
      expect((await after.answer).status, 'the slots are free again').to.equal(202);
    });

    it('limits each operation to its own size, and reads no body before the key is checked', async () => {
      const org = await newOrg('body-limits');
      const auth = { ...json, authorization: `Bearer ${org.org_api_key}` };
      const post = async (path: string, body: string, headers: Record<string, string> = auth) => {
        const x = exchange(baseUrl, path, headers);
        await x.end(body);
        return x.answer;
      };
      const tenKilobytes = 'x'.repeat(10_000);

      const environment = await post('/v1/environments', JSON.stringify({ name: 'big', description: tenKilobytes }));
      expectErrorBody(environment, 413, 'an ordinary JSON operation');
      expect(environment.body.details).to.equal('the limit for this operation is 4096 bytes (4 KiB)');

      // A message (which may carry images) takes more: this one goes through to the service.
      const message = await post(`/v1/replica/${randomUUID()}/messages`, JSON.stringify({ message: tenKilobytes }));
      expectErrorBody(message, 404, 'a message within its limit');
      const tooLong = await post(`/v1/replica/${randomUUID()}/messages`, JSON.stringify({ message: 'x'.repeat(70_000) }));
      expectErrorBody(tooLong, 413, 'a message over its limit');
      expect(tooLong.body.details).to.equal('the limit for this operation is 65536 bytes (64 KiB)');

      const anonymous = await post('/v1/environments', JSON.stringify({ name: 'big', description: tenKilobytes }), json);
      expectErrorBody(anonymous, 401, 'no key');
    });
  });
});
