/**
 * Plugins inside workspaces, on the real stack: a member's own install of a slug replaces the
 * organization's in their workspace while another member's workspace gets the organization's,
 * as seen in each agent's MCP config in its container and by calling through Hangar's plugin
 * endpoint to a third-party MCP server that records which token reached it. The plugin
 * secrets never enter a container; the endpoint opens only with the workspace's own engine
 * secret and for its own plugins; the native github plugin comments on the fake GitHub.
 */
import { expect } from 'chai';
import { AGENT_1_MCP_CONFIG } from '../../../src/agents/adapters';
import { createDocker } from '../../../src/sandbox';
import { execInContainer } from '../../support/containerExec';
import { startFakeMcpServer, type FakeMcpServer } from '../../support/fakeMcpServer';
import { fakeGithub, harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';
import { expectShape } from '../../support/originalShapes';
import { until } from '../../support/wait';
import { activeWorkspace, containerOf, fromHere, mcpClient, textOf, type McpEntry } from './support';

const ORG_TOKEN = 'org_plugin_token_5f1c0a7e9b2d4c6e8a0b';
const ALICE_TOKEN = 'alice_plugin_token_3e8d1b6a0c4f2e9d7b5a';
const INSTALLATION = 424242;

describe('plugins: in workspaces', function () {
  this.timeout(300_000);

  let mcp: FakeMcpServer;
  let org: Awaited<ReturnType<typeof newOrg>>;
  let aliceKey: string;
  let installs: { orgDocs: string; aliceDocs: string; github: string };
  let wa: { id: string; mcp: Record<string, McpEntry> };
  let wb: { id: string; mcp: Record<string, McpEntry> };

  before(async () => {
    mcp = await startFakeMcpServer([ORG_TOKEN, ALICE_TOKEN]);
    org = await newOrg('plugin-workspaces');
    const admin = as(org.admin.personal_api_key);
    aliceKey = (await harness().admin.createUser({ organizationId: org.organization_id, email: 'alice@ws-plugins.test' })).personal_api_key;
    const bobKey = (await harness().admin.createUser({ organizationId: org.organization_id, email: 'bob@ws-plugins.test' })).personal_api_key;
    await harness().admin.addRepository({ organizationId: org.organization_id, url: 'https://github.com/acme/app' });
    // The App is installed on the repository, whose pull request 17 the agent comments on.
    fakeGithub().pulls.put({ repository: 'acme/app', number: 17, headSha: 'a'.repeat(40), installationId: INSTALLATION });

    const orgDocs = await admin.post('/v1/plugins', {
      slug: 'docs',
      kind: 'http',
      provides: 'google',
      config: { url: mcp.url, headers: { 'X-Tenant': 'acme' } },
      secret: { type: 'oauth_token', value: ORG_TOKEN },
    });
    const aliceDocs = await as(aliceKey).post('/v1/user/plugins', { slug: 'docs', kind: 'http', config: { url: mcp.url }, secret: { type: 'api_key', value: ALICE_TOKEN } });
    const github = await admin.post('/v1/plugins', { slug: 'github', kind: 'native' });
    // Bob's own plugin, whose server is down (nothing listens on port 9 of this host).
    const bobDown = await as(bobKey).post('/v1/user/plugins', { slug: 'down', kind: 'http', config: { url: 'http://127.0.0.1:9/mcp' } });
    for (const answer of [orgDocs, aliceDocs, github, bobDown]) expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    installs = { orgDocs: orgDocs.body.plugin.id, aliceDocs: aliceDocs.body.plugin.id, github: github.body.plugin.id };

    [wa, wb] = await Promise.all([activeWorkspace(aliceKey, 'alice-ws'), activeWorkspace(bobKey, 'bob-ws')]);
  });

  after(async () => {
    await mcp?.close();
  });

  it("writes the member's own install in their agent's config and the organization's in another member's", async () => {
    const endpoint = (ws: string, install: string) => new RegExp(`/v1/workspaces/${ws}/plugins/${install}/mcp$`);
    expect(Object.keys(wa.mcp).sort()).to.deep.equal(['hangar-docs', 'hangar-github']);
    expect(Object.keys(wb.mcp).sort()).to.deep.equal(['hangar-docs', 'hangar-down', 'hangar-github']);
    expect(wa.mcp['hangar-docs']!.url).to.match(endpoint(wa.id, installs.aliceDocs));
    expect(wb.mcp['hangar-docs']!.url).to.match(endpoint(wb.id, installs.orgDocs));
    expect(wa.mcp['hangar-github']!.url).to.match(endpoint(wa.id, installs.github));
    expect(wb.mcp['hangar-github']!.url).to.match(endpoint(wb.id, installs.github));
    // The endpoint opens with the workspace's own engine secret, which the container already holds.
    const secret = (await execInContainer(containerOf(wa.id), 'printf %s "$HANGAR_ENGINE_SECRET"')).trim();
    expect(wa.mcp['hangar-docs']!).to.deep.include({ type: 'http', headers: { Authorization: `Bearer ${secret}`, 'X-Workspace-Id': wa.id } });
  });

  it('never puts a plugin secret in a container: files, processes or its environment', async () => {
    for (const ws of [wa, wb]) {
      const found = await execInContainer(
        containerOf(ws.id),
        `grep -rIl -e ${ORG_TOKEN} -e ${ALICE_TOKEN} /home/hangar /tmp /etc 2>/dev/null; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c -e ${ORG_TOKEN} -e ${ALICE_TOKEN}`,
      );
      expect(found.trim()).to.equal('0');
      const inspect = await createDocker().getContainer(containerOf(ws.id)).inspect();
      expect(JSON.stringify(inspect.Config.Env)).not.to.include(ORG_TOKEN).and.not.include(ALICE_TOKEN);
    }
  });

  it("reaches the plugin's server through Hangar with the secret of the install the workspace gets", async () => {
    const alice = await mcpClient(wa.mcp['hangar-docs']!);
    const bob = await mcpClient(wb.mcp['hangar-docs']!);
    try {
      expect((await alice.listTools()).tools.map((t) => t.name)).to.deep.equal(['whoami']);
      expect(JSON.parse(textOf(await alice.callTool({ name: 'whoami', arguments: {} })))).to.deep.equal({ token: ALICE_TOKEN, tenant: null });
      expect(JSON.parse(textOf(await bob.callTool({ name: 'whoami', arguments: {} })))).to.deep.equal({ token: ORG_TOKEN, tenant: 'acme' });
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
    // Sessions and event streams crossed; the workspace's own credentials did not.
    expect(mcp.calls.some((c) => c.headers['mcp-session-id'])).to.equal(true);
    for (const call of mcp.calls) {
      expect([ORG_TOKEN, ALICE_TOKEN]).to.include(call.token);
      expect(call.headers).not.to.have.property('x-workspace-id');
    }
  });

  it('is reachable from inside the workspace at the URL its agent was given', async () => {
    const script = `
      const entry = require('/home/hangar/.hangar/agent_1/mcp.json').mcpServers['hangar-docs'];
      fetch(entry.url, { method: 'POST', headers: { ...entry.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'in-container', version: '1' } } }) })
        .then(async (r) => console.log(r.status, r.headers.get('mcp-session-id') ? 'session' : 'no-session', (await r.text()).includes('fake-third-party')));`;
    const out = await execInContainer(containerOf(wa.id), `echo ${Buffer.from(script).toString('base64')} | base64 -d > /tmp/initialize.js && node /tmp/initialize.js`);
    expect(out.trim()).to.equal('200 session true');
    expect(mcp.calls.at(-1)!.token).to.equal(ALICE_TOKEN);
  });

  it("opens only with the workspace's engine secret, for its own plugins", async () => {
    const post = async (path: URL, headers: Record<string, string>) => {
      const res = await fetch(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      return { status: res.status, body: (await res.json()) as { error: string; details: string | null } };
    };
    const url = (ws: string, install: string) => new URL(`/v1/workspaces/${ws}/plugins/${install}/mcp`, harness().baseUrl);
    const a = wa.mcp['hangar-docs']!.headers;
    const b = wb.mcp['hangar-docs']!.headers;
    const calls = mcp.calls.length;

    for (const headers of [{}, { ...a, Authorization: 'Bearer not-the-secret' }, { Authorization: `Bearer ${aliceKey}` }, { ...a, 'X-Workspace-Id': wb.id }]) {
      const answer = await post(url(wa.id, installs.aliceDocs), headers);
      expect(answer.status, JSON.stringify(headers)).to.equal(401);
      expect(errorOf({ ...answer, headers: new Headers() }).details).to.include('engine secret');
    }
    // Another workspace's engine secret reaches none of this one's plugins.
    expect((await post(url(wa.id, installs.aliceDocs), b)).status).to.equal(404);
    // A workspace reaches neither another member's install nor the one its owner's replaced.
    expect((await post(url(wb.id, installs.aliceDocs), b)).status).to.equal(404);
    expect((await post(url(wa.id, installs.orgDocs), a)).status).to.equal(404);
    expect(mcp.calls.length).to.equal(calls);

    // A plugin whose server cannot be reached: 502 with the Error body, naming only the host.
    const down = await post(fromHere(wb.mcp['hangar-down']!.url), b);
    expect(down.status).to.equal(502);
    expect(errorOf({ ...down, headers: new Headers() }).details).to.match(/^127\.0\.0\.1:9 \(ECONNREFUSED\)$/);
  });

  it('serves the native github plugin: its tools comment on the organization\'s repositories', async () => {
    const client = await mcpClient(wa.mcp['hangar-github']!);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal(['list_repositories', 'comment_on_issue']);
      expect(JSON.parse(textOf(await client.callTool({ name: 'list_repositories', arguments: {} })))).to.deep.equal({ repositories: ['acme/app'] });

      const posted = await client.callTool({ name: 'comment_on_issue', arguments: { repository: 'acme/app', number: 17, body: 'Fixed in the workspace.' } });
      expect(posted.isError).to.not.equal(true);
      const comment = JSON.parse(textOf(posted)) as { id: number; html_url: string };
      expect(comment.html_url).to.equal(`https://github.com/acme/app/issues/17#issuecomment-${comment.id}`);
      expect(fakeGithub().issues.comments.find((c) => c.id === comment.id)).to.deep.include({ repository: 'acme/app', issue: 17, body: 'Fixed in the workspace.', user: 'hangar[bot]' });
      // As the App's installation on the repository: looked up with the App's JWT, then its token minted.
      const paths = fakeGithub().calls.map((c) => `${c.method} ${c.path}`);
      expect(paths).to.include('GET /repos/acme/app/installation').and.include(`POST /app/installations/${INSTALLATION}/access_tokens`);

      const foreign = await client.callTool({ name: 'comment_on_issue', arguments: { repository: 'someone/else', number: 1, body: 'x' } });
      expect(foreign.isError).to.equal(true);
      expect(textOf(foreign)).to.include('not a GitHub repository of this organization');
      const invalid = await client.callTool({ name: 'comment_on_issue', arguments: { repository: 'acme/app', number: 0, body: 'x' } });
      expect(invalid.isError).to.equal(true);
      expect(textOf(invalid)).to.include('invalid arguments');
    } finally {
      await client.close();
    }
    expect(fakeGithub().issues.comments.filter((c) => c.repository === 'someone/else')).to.have.length(0);
  });

  it('reports the plugins and the integrations each workspace gets in its environment block', async () => {
    const block = async (id: string) => (await as(org.org_api_key).get(`/v1/replica/${id}?include=environment`)).body.replica.environment;
    const [a, b] = [await block(wa.id), await block(wb.id)];
    for (const env of [a, b]) expectShape('ReplicaEnvironment', env);
    const brief = (env: { plugins: Array<Record<string, unknown>> }) => env.plugins.map((p) => ({ slug: p.slug, scope: p.scope, kind: p.kind }));
    expect(brief(a)).to.deep.equal([{ slug: 'docs', scope: 'user', kind: 'http' }, { slug: 'github', scope: 'org', kind: 'native' }]);
    expect(brief(b)).to.deep.equal([
      { slug: 'docs', scope: 'org', kind: 'http' },
      { slug: 'down', scope: 'user', kind: 'http' },
      { slug: 'github', scope: 'org', kind: 'native' },
    ]);
    // The organization's docs plugin provides google; Alice's own, which replaces it for her, does not.
    expect(a.integrations).to.deep.equal({ github: true, gitlab: false, linear: false, slack: false, google: false });
    expect(b.integrations).to.deep.equal({ github: true, gitlab: false, linear: false, slack: false, google: true });
    expect(JSON.stringify([a, b])).not.to.include(ORG_TOKEN).and.not.include(ALICE_TOKEN);

    const listed = await as(aliceKey).get(`/v1/workspaces/${wa.id}/plugins`);
    expect(listed.body.plugins.map((p: { id: string }) => p.id)).to.deep.equal([installs.aliceDocs, installs.github]);
    const engine = await fetch(new URL(`/v1/workspaces/${wb.id}/plugins`, harness().baseUrl), { headers: wa.mcp['hangar-docs']!.headers });
    expect(engine.status).to.equal(404);
  });

  it("the next turn's config follows a disabled personal install and an uninstall", async () => {
    const alice = as(aliceKey);
    const readConfig = async () => JSON.parse(await execInContainer(containerOf(wa.id), `cat ${AGENT_1_MCP_CONFIG}`)) as { mcpServers: Record<string, McpEntry> };
    // A second chat runs its turns beside the first one's long wait.
    const chat = await alice.post(`/v1/replica/${wa.id}/chats`, { provider: 'agent_1' });
    expect(chat.status).to.equal(201);
    const turn = async (message: string) => {
      const sent = await alice.post(`/v1/workspaces/${wa.id}/chats/${chat.body.id}/messages`, { message });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      await until(`the turn "${message}"`, async () => (await harness().database.db('replica_messages').where({ id: sent.body.messageId }).first('status'))?.status === 'completed', 60_000, 200);
    };

    // With hers switched off, Alice's workspace gets the organization's again.
    expect((await alice.patch(`/v1/user/plugins/${installs.aliceDocs}`, { enabled: false })).status).to.equal(200);
    expect((await alice.get(`/v1/workspaces/${wa.id}/plugins`)).body.plugins.map((p: { id: string }) => p.id)).to.deep.equal([installs.orgDocs, installs.github]);
    await turn('first');
    const docs = (await readConfig()).mcpServers['hangar-docs']!;
    expect(docs.url).to.match(new RegExp(`/plugins/${installs.orgDocs}/mcp$`));
    const client = await mcpClient(docs);
    try {
      expect(JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).token).to.equal(ORG_TOKEN);
    } finally {
      await client.close();
    }

    // Uninstalled everywhere: gone from the next turn's config, and its endpoint closed.
    expect((await as(org.admin.personal_api_key).delete(`/v1/plugins/${installs.orgDocs}`)).status).to.equal(200);
    await turn('second');
    expect(Object.keys((await readConfig()).mcpServers)).to.deep.equal(['hangar-github']);
    const gone = await fetch(fromHere(docs.url), { method: 'POST', headers: { ...docs.headers, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(gone.status).to.equal(404);
  });
});
