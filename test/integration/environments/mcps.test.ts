import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const rawMcp = (id: string) => harness().database.db('environment_mcps').where({ id }).first();

const stdio = { name: 'github', transport: 'stdio', config: { command: 'npx', args: ['-y', 'github-mcp'], env: { GITHUB_TOKEN: 'ghp_stdio-secret-token' } } };
const http = { name: 'linear', transport: 'http', config: { url: 'https://mcp.linear.example/mcp', headers: { Authorization: 'Bearer lin_http-secret-token' } } };

describe('environment MCP servers', () => {
  it('creates, lists, updates and deletes servers, returning configs in full', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'tools' })).body.environment;
    const base = `/v1/environments/${env.id}/mcps`;

    const created = await api.post(base, stdio);
    expect(created.status).to.equal(201);
    const server = created.body.environment_mcp;
    expect(Object.keys(server).sort()).to.deep.equal(
      ['config', 'created_at', 'environment_id', 'id', 'name', 'organization_id', 'transport', 'updated_at'].sort(),
    );
    expect(server).to.deep.include({ ...stdio, organization_id: org.organization_id, environment_id: env.id });
    const remote = (await api.post(base, http)).body.environment_mcp;
    expect(remote.config).to.deep.equal(http.config);
    // Optional members are filled in, so a read always has the whole shape.
    const minimal = await api.post(base, { name: 'fs', transport: 'stdio', config: { command: 'mcp-fs' } });
    expect(minimal.body.environment_mcp.config).to.deep.equal({ command: 'mcp-fs', args: [], env: {} });
    const sse = await api.post(base, { name: 'events_1', transport: 'sse', config: { url: 'http://127.0.0.1:9000/sse' } });
    expect(sse.body.environment_mcp).to.deep.include({ transport: 'sse', config: { url: 'http://127.0.0.1:9000/sse', headers: {} } });

    const list = await api.get(base);
    expect(list.body).to.have.keys(['environment_mcps']);
    expect(list.body.environment_mcps.map((m: { name: string }) => m.name)).to.deep.equal(['events_1', 'fs', 'github', 'linear']);
    expect(list.body.environment_mcps[2]).to.deep.equal(server);

    const renamed = await api.patch(`${base}/${server.id}`, { name: 'gh' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.environment_mcp).to.deep.include({ name: 'gh', transport: 'stdio', config: stdio.config });
    const reconfigured = await api.patch(`${base}/${server.id}`, { config: { command: 'gh-mcp', args: ['--stdio'] } });
    expect(reconfigured.body.environment_mcp.config).to.deep.equal({ command: 'gh-mcp', args: ['--stdio'], env: {} });

    expect((await api.delete(`${base}/${server.id}`)).body).to.deep.equal({ success: true });
    expect((await api.get(base)).body.environment_mcps).to.have.length(3);
    const gone = await api.delete(`${base}/${server.id}`);
    expect(gone.status).to.equal(404);
    expect(errorOf(gone).error).to.equal('MCP server not found');
  });

  it('stores configs sealed: tokens in env and headers never appear in the database column', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    for (const body of [stdio, http]) {
      const server = (await api.post('/v1/environments/global/mcps', body)).body.environment_mcp;
      const raw = await rawMcp(server.id);
      expect(raw).to.include({ name: body.name, transport: body.transport });
      expect(raw.config_sealed).to.match(/^v2\./);
      expect(JSON.stringify(raw)).not.to.include('secret-token');
    }
    const read = (await api.get('/v1/environments/global/mcps')).body.environment_mcps;
    expect(read.map((m: { config: unknown }) => m.config)).to.deep.equal([stdio.config, http.config]);
  });

  it('rejects a duplicate name in the same environment with 409', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/mcps';
    expect((await api.post(base, stdio)).status).to.equal(201);
    const dup = await api.post(base, { ...http, name: 'github' });
    expect(dup.status).to.equal(409);
    expect(errorOf(dup).error).to.equal('An MCP server with this name already exists in this environment');
    const other = (await api.post(base, http)).body.environment_mcp;
    expect((await api.patch(`${base}/${other.id}`, { name: 'github' })).status).to.equal(409);
    expect((await api.get(base)).body.environment_mcps.map((m: { name: string }) => m.name)).to.deep.equal(['github', 'linear']);
  });

  it('validates names, including the reserved hangar- prefix', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/mcps';
    const cases: Array<[string, RegExp]> = [
      ['hangar-tools', /^body\.name: the prefix "hangar-" is reserved/],
      ['Hangar-Tools', /^body\.name: the prefix "hangar-" is reserved/],
      ['-leading-dash', /^body\.name: must match pattern/],
      ['has space', /^body\.name: must match pattern/],
      ['a'.repeat(65), /^body\.name: must match pattern/],
    ];
    for (const [name, details] of cases) {
      const res = await api.post(base, { ...stdio, name });
      expect(res.status, name).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    }
    for (const name of ['hangar', 'hangar_tools', 'my-hangar-server', 'a'.repeat(64), '9_lives']) {
      expect((await api.post(base, { ...stdio, name })).status, name).to.equal(201);
    }
    const server = (await api.get(base)).body.environment_mcps[0];
    const rename = await api.patch(`${base}/${server.id}`, { name: 'hangar-x' });
    expect(rename.status).to.equal(400);
    expect(errorOf(rename).details).to.match(/reserved/);
  });

  it('validates the config against its transport with 400 naming the field', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/mcps';
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'x', transport: 'stdio', config: { args: [] } }, /^body\.config\.command: is required/],
      [{ name: 'x', transport: 'stdio', config: { url: 'https://x.example' } }, /^body\.config\.command: is required$/],
      [{ name: 'x', transport: 'stdio', config: { command: 'x', args: 'one two' } }, /^body\.config\.args: must be array/],
      [{ name: 'x', transport: 'stdio', config: { command: 'x', env: { TOKEN: 1 } } }, /^body\.config\.env\.TOKEN: must be string/],
      [{ name: 'x', transport: 'stdio', config: { command: 'x', env: { 'BAD-NAME': 'v' } } }, /^body\.config\.env: /],
      [{ name: 'x', transport: 'http', config: { command: 'npx' } }, /^body\.config\.url: is required$/],
      [{ name: 'x', transport: 'http', config: { url: 'ftp://files.example' } }, /^body\.config\.url: must match pattern/],
      [{ name: 'x', transport: 'sse', config: { url: 'not a url' } }, /^body\.config\.url: /],
      [{ name: 'x', transport: 'http', config: { url: 'https://x.example', headers: { 'X-Key': 'a\r\nInjected: 1' } } }, /^body\.config\.headers\.X-Key: /],
      [{ name: 'x', transport: 'http', config: { url: 'https://x.example', headers: { 'Bad Header': 'a' } } }, /^body\.config\.headers: must match pattern/],
      [{ name: 'x', transport: 'stdio', config: { command: 'x', args: ['ok', 'a\u0000b'] } }, /^body\.config\.args\.1: must not contain NUL characters$/],
      [{ name: 'x', transport: 'stdio', config: { command: 'x', env: { TOKEN: '\u0000' } } }, /^body\.config\.env\.TOKEN: must not contain NUL characters$/],
      [{ name: 'x', transport: 'websocket', config: { url: 'https://x.example' } }, /^body\.transport: must be one of stdio, http, sse/],
      [{ name: 'x', transport: 'stdio' }, /^body\.config: is required/],
      [{ name: 'x', transport: 'stdio', config: { command: 'x' }, enabled: true }, /^body\.enabled: unknown field/],
    ];
    for (const [body, details] of cases) {
      const res = await api.post(base, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(res).details, JSON.stringify(body)).to.match(details);
    }
    expect((await api.get(base)).body.environment_mcps).to.deep.equal([]);
  });

  it('requires a new config in the same PATCH when the transport changes', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/mcps';
    const server = (await api.post(base, http)).body.environment_mcp;
    const url = `${base}/${server.id}`;

    const bare = await api.patch(url, { transport: 'stdio' });
    expect(bare.status).to.equal(400);
    expect(errorOf(bare).details).to.equal('body.config: changing transport from http to stdio requires a new config in the same request');
    expect((await api.patch(url, { transport: 'sse' })).status).to.equal(400);
    // Naming the current transport is not a change.
    expect((await api.patch(url, { transport: 'http', name: 'linear2' })).status).to.equal(200);

    const mismatched = await api.patch(url, { transport: 'stdio', config: { url: 'https://x.example' } });
    expect(mismatched.status).to.equal(400);
    expect(errorOf(mismatched).details).to.match(/^body\.config\./);

    const switched = await api.patch(url, { transport: 'stdio', config: { command: 'linear-mcp', env: { LINEAR_KEY: 'k' } } });
    expect(switched.status).to.equal(200);
    expect(switched.body.environment_mcp).to.deep.include({ transport: 'stdio', config: { command: 'linear-mcp', args: [], env: { LINEAR_KEY: 'k' } } });

    // A config sent alone must fit the server's current transport.
    const wrongShape = await api.patch(url, { config: { url: 'https://x.example' } });
    expect(wrongShape.status).to.equal(400);
    expect(errorOf(wrongShape).details).to.match(/^body\.config\.command: is required \(a stdio server's config is \{command, args\[\], env\{\}\}\)$/);
    const badEnvName = await api.patch(url, { config: { command: 'x', env: { 'BAD-NAME': 'v' } } });
    expect(errorOf(badEnvName).details).to.match(/^body\.config\.env: property name "BAD-NAME" must match pattern/);
    const badArgs = await api.patch(url, { config: { command: 'x', args: [1] } });
    expect(errorOf(badArgs).details).to.match(/^body\.config\.args\.0: must be string/);
    expect((await api.get(base)).body.environment_mcps[0]).to.deep.include({ name: 'linear2', transport: 'stdio' });
    expect((await api.get(base)).body.environment_mcps[0].config.command).to.equal('linear-mcp');

    const empty = await api.patch(url, {});
    expect(empty.status).to.equal(400);
  });
});
