/**
 * Bad input answered with the Error body (400/401/404/405/431), never reaching PostgreSQL as
 * a 500: ids in a form PostgreSQL refuses, NUL and lone surrogates, JSON nested too deep, dates
 * out of range, unknown methods, and requests Node's parser refuses.
 */
import { connect } from 'node:net';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

/** Sends raw bytes and returns the raw answer (the server closes after it). */
async function rawRequest(bytes: string): Promise<string> {
  const { port } = new URL(harness().baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => resolve());
    socket.write(bytes);
  });
  return Buffer.concat(chunks).toString('utf8');
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string; details: string | null };

describe('input hygiene', () => {
  it('refuses a workspace id that is not a canonical UUID as bad engine credentials, not a database error', async () => {
    const res = await request('POST', '/v1/replica', {
      headers: { authorization: 'Bearer whatever', 'x-workspace-id': '000000000000000000000000000000000000' },
      body: { message: 'hello' },
    });
    expect(res.status).to.equal(401);
    expect(errorOf(res).error).to.be.a('string');
  });

  it('takes only the canonical UUID form in paths, queries and bodies', async () => {
    const org = await newOrg('hygiene');
    const api = as(org.org_api_key);
    const urn = 'urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    const inPath = await api.get(`/v1/environments/${encodeURIComponent(urn)}`);
    expect([400, 404]).to.include(inPath.status);
    errorOf(inPath);
    const inBody = await api.post('/v1/environments', { name: 'urn', repository_id: urn });
    expect(inBody.status).to.equal(400);
    expect(errorOf(inBody).details).to.match(/repository_id/);
    const inQuery = await api.get(`/v1/replica/${urn}/history?chat_id=${encodeURIComponent(urn)}`);
    expect(inQuery.status).to.be.oneOf([400, 404]);
    errorOf(inQuery);
  });

  it('refuses NUL and lone surrogates in text, naming the field', async () => {
    const api = as((await newOrg('hygiene')).org_api_key);
    const named = await api.post('/v1/environments', { name: 'a\u0000b' });
    expect(named.status).to.equal(400);
    expect(errorOf(named).details).to.equal('body.name: must not contain NUL characters');
    const lone = await request('POST', '/v1/environments', {
      key: (await newOrg('hygiene')).org_api_key,
      rawBody: '{"name":"ok","description":"\\ud800 alone"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(lone.status).to.equal(400);
    expect(errorOf(lone).details).to.equal('body.description: must not contain unpaired UTF-16 surrogates');
    const key = await api.post('/v1/replica', { message: 'hi', config: { 'x\u0000': 1 } });
    expect(key.status).to.equal(400);
    expect(errorOf(key).details).to.match(/body\.config: a field name must not contain NUL/);
    const search = await api.get('/v1/automations?search=%00');
    expect(search.status).to.equal(400);
    expect(errorOf(search).details).to.equal('query.search: must not contain NUL characters');
  });

  it('refuses a query number that coerces to Infinity instead of ignoring it (found by the fuzzer)', async () => {
    const api = as((await newOrg('hygiene')).org_api_key);
    for (const path of ['/v1/environments?page=1e400', '/v1/organization/api-keys?limit=3&page=1e400']) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(400);
      expect(errorOf(res).details, path).to.equal('query.page: must be a finite number');
    }
    expect((await api.get('/v1/environments?page=1e3')).status).to.equal(200);
  });

  it('refuses a page past the millionth, whose offset PostgreSQL cannot take (found by the fuzzer)', async () => {
    const api = as((await newOrg('hygiene')).org_api_key);
    for (const path of ['/v1/organization/api-keys?limit=2&page=99999999999999999999', '/v1/replica?limit=6&page=99999999999999999999', '/v1/automations?page=1000001']) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(400);
      expect(errorOf(res).details, path).to.equal('query.page: must be <= 1000000');
    }
    const last = await api.get('/v1/replica?limit=100&page=1000000');
    expect(last.status).to.equal(200);
    expect(last.body.replicas).to.deep.equal([]);
  });

  it('refuses JSON nested deeper than 64 levels before parsing it', async () => {
    const { org_api_key: key } = await newOrg('hygiene');
    const deep = `{"message":"hi","config":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await request('POST', '/v1/replica', { key, rawBody: deep, headers: { 'content-type': 'application/json', 'x-api-version': '2026-05-17' } });
    expect(res.status).to.equal(400);
    expect(errorOf(res).details).to.equal('body: JSON nested deeper than 64 levels');
    // Brackets inside strings do not count.
    const flat = await as(key).post('/v1/environments', { name: 'brackets', description: '['.repeat(500) });
    expect(flat.status).to.equal(201);
  });

  it('answers 405 with Allow for a method a path lacks, and 404 for a path that does not exist', async () => {
    const { org_api_key: key } = await newOrg('hygiene');
    for (const method of ['PROPFIND', 'PUT']) {
      const res = await request(method, '/v1/environments', { key });
      expect(res.status, method).to.equal(405);
      expect(res.headers.get('allow')).to.match(/GET/).and.match(/POST/);
      expect(errorOf(res).error).to.equal('Method not allowed');
    }
    const nowhere = await request('PROPFIND', '/v1/nowhere', { key });
    expect(nowhere.status).to.equal(404);
    errorOf(nowhere);
  });

  it("answers the Error body to requests Node's parser refuses", async () => {
    const host = 'Host: localhost\r\n';
    const cases: Array<[string, number, RegExp]> = [
      [`POST /v1/environments HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\n`, 400, /chunked/],
      [`POST /v1/environments HTTP/1.1\r\n${host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 400, /Content-Length/],
      [`GET /v1/environments HTTP/1.1\r\n${host}X-Bad: a\u0000b\r\n\r\n`, 400, /character/],
      [`GET /v1/environments HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, /too large/],
    ];
    for (const [bytes, status, details] of cases) {
      const answer = await rawRequest(bytes);
      expect(statusOf(answer), bytes.slice(0, 60)).to.equal(status);
      expect(answer).to.match(/content-type: application\/json/i);
      expect(bodyOf(answer).details).to.match(details);
    }
    // HEAD gets the status without a body, which its client would take for a second answer (found by the fuzzer).
    const head = await rawRequest(`HEAD /v1/environments HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(statusOf(head)).to.equal(431);
    expect(head.slice(head.indexOf('\r\n\r\n') + 4)).to.equal('');
    // The server is still there.
    expect((await request('GET', '/readyz')).status).to.be.oneOf([200, 503]);
  });
});
