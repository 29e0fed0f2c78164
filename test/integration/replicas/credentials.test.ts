/**
 * Which credential a workspace's agent uses, and where it is. The agent here is the test agent
 * making the provider call itself (curl from inside the container, with the base URL and key
 * the adapter gave it), so the path under test is Hangar's: the container holds only the
 * gateway's placeholder key; the AI gateway swaps in the resolved credential (personal over the
 * organization's) before the local model server sees the request.
 */
import { expect } from 'chai';
import { aiUpstream, harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { startModelServer, type ModelServer } from '../../support/modelServer';
import { until } from '../../support/wait';

/** A Messages call through the gateway, then everything the agent's process can see of itself. */
const MESSAGE = [
  `!run curl -s -o /dev/null -w 'status=%{http_code}\\n' -X POST "$ANTHROPIC_BASE_URL/v1/messages" -H "x-api-key: $ANTHROPIC_API_KEY" -H 'anthropic-version: 2023-06-01' -H 'content-type: application/json' -d '{"model":"m-1","max_tokens":16,"messages":[{"role":"user","content":"hello"}]}'`,
  '!run env; cat ~/.claude.json ~/.claude/*.json 2>/dev/null; true',
].join('\n');

describe('replicas: agent credentials in turns', function () {
  this.timeout(120_000);
  let models: ModelServer;

  before(async () => {
    models = await startModelServer({ port: aiUpstream().port });
    models.script(() => ({ text: 'hi' }));
  });
  after(async () => {
    await models?.close();
  });

  it("sends the personal credential over the organization's to the provider, and none of them into the container", async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'dev@creds.test' });
    const orgSecret = `org-secret-${org.organization_id}`;
    const personalSecret = `personal-secret-${member.user_id}`;
    expect((await as(org.org_api_key).post('/v1/organization/credentials/agent_1', { kind: 'api_key', secret: orgSecret })).status).to.equal(200);
    expect((await as(member.personal_api_key).post('/v1/user/credentials/agent_1', { kind: 'api_key', secret: personalSecret })).status).to.equal(200);

    const run = async (key: string) => {
      const res = await request('POST', '/v1/replica', { key, headers: { 'X-Api-Version': '2026-05-17' }, body: { name: 'creds', coding_agent: 'agent_1', message: MESSAGE } });
      const id = res.body.replica.id as string;
      const before = models.calls.length;
      const seen = await until("the turn's output", async () => {
        const done = await harness().database.db('replica_messages').where({ replica_id: id }).whereIn('status', ['completed', 'failed']).first();
        return done ? JSON.stringify(await harness().database.db('replica_agent_events').where({ replica_id: id }).select('payload')) : undefined;
      }, 60_000);
      await as(key).delete(`/v1/replica/${id}`);
      const calls = models.calls.slice(before);
      expect(calls.map((c) => c.path), seen).to.deep.equal(['/agent_1/v1/messages']);
      return { inside: seen, presented: calls[0]!.headers['x-api-key'] };
    };

    const personal = await run(member.personal_api_key);
    expect(personal.presented).to.equal(personalSecret);
    expect(personal.inside).to.include('status=200').and.include('ANTHROPIC_API_KEY=hgw_');
    const organization = await run(org.org_api_key);
    expect(organization.presented).to.equal(orgSecret);
    for (const text of [personal.inside, organization.inside, harness().logs.join('\n')]) {
      expect(text).not.to.include(personalSecret);
      expect(text).not.to.include(orgSecret);
    }
  });
});
