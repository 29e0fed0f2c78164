import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

describe('authentication and cross-cutting HTTP behaviour', () => {
  it('answers 401 with the Error body for a missing, malformed or unknown key', async () => {
    const variants: Array<Record<string, string>> = [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer hgr_org_nope' }];
    for (const headers of variants) {
      const res = await request('GET', '/v1/environments', { headers });
      expect(res.status).to.equal(401);
      expect(errorOf(res).error).to.equal('Invalid or missing API key');
    }
  });

  it('stores keys only as hashes', async () => {
    const org = await newOrg();
    const rows = await harness().database.db('api_keys').where({ organization_id: org.organization_id });
    expect(rows).to.have.length(2);
    for (const row of rows) {
      expect(JSON.stringify(row)).not.to.include(org.org_api_key);
      expect(JSON.stringify(row)).not.to.include(org.admin.personal_api_key);
    }
    expect((await as(org.org_api_key).get('/v1/environments')).status).to.equal(200);
  });

  it('stops accepting a revoked key at once, though it was just answered from memory', async () => {
    const org = await newOrg();
    const key = await harness().admin.createKey({ organizationId: org.organization_id, kind: 'org' });
    expect((await as(key.api_key).get('/v1/environments')).status).to.equal(200);
    expect((await as(key.api_key).get('/v1/environments')).status).to.equal(200);
    expect((await as(org.org_api_key).delete(`/v1/organization/api-keys/${key.key_id}`)).status).to.equal(200);
    expect((await as(key.api_key).get('/v1/environments')).status).to.equal(401);
  });

  it('answers unknown routes with 404 and the Error body, and carries a request id', async () => {
    const res = await request('GET', '/v1/nothing-here');
    expect(res.status).to.equal(404);
    errorOf(res);
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('never logs API keys or bodies', async () => {
    const org = await newOrg();
    await as(org.org_api_key).post('/v1/environments', { name: 'logged', system_prompt: 'TOP-SECRET-PROMPT' });
    const logs = harness().logs.join('\n');
    expect(logs).to.include('"route":"/v1/environments"');
    expect(logs).not.to.include(org.org_api_key);
    expect(logs).not.to.include('TOP-SECRET-PROMPT');
  });

  it('reports health and readiness', async () => {
    expect((await request('GET', '/healthz')).body).to.deep.equal({ status: 'ok' });
    const ready = await request('GET', '/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.equal({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas, and a docs page with local assets', async () => {
    const doc = await request('GET', '/openapi.json');
    expect(doc.body.openapi).to.equal('3.1.0');
    const post = doc.body.paths['/v1/environments/{environmentId}/start-hooks/test'].post;
    expect(post.requestBody.content['application/json'].schema.required).to.deep.equal(['content']);
    expect(post.responses).to.have.keys('200', '400', '401', '403', '404');
    expect(doc.body.paths['/v1/environments/{id}'].delete.responses).to.have.property('409');

    const page = await request('GET', '/docs');
    expect(page.headers.get('content-type')).to.match(/text\/html/);
    const scripts = [...(page.body as string).matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).to.have.length.greaterThan(1);
    for (const src of scripts) {
      expect(src.startsWith('/'), `${src} must be served locally`).to.equal(true);
      const asset = await fetch(harness().baseUrl + src);
      expect(asset.status, src).to.equal(200);
      expect((await asset.text()).length).to.be.greaterThan(10);
    }
  });
});
