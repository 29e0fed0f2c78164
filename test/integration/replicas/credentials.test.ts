import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('replicas: agent credentials in turns', function () {
  this.timeout(120_000);

  it('gives a turn the personal credential over the organization\'s, and the organization\'s otherwise', async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'dev@creds.test' });
    const orgSecret = `org-secret-${org.organization_id}`;
    const personalSecret = `personal-secret-${member.user_id}`;
    expect((await as(org.org_api_key).post('/v1/organization/credentials/agent_1', { kind: 'api_key', secret: orgSecret })).status).to.equal(200);
    expect((await as(member.personal_api_key).post('/v1/user/credentials/agent_1', { kind: 'api_key', secret: personalSecret })).status).to.equal(200);

    // The agent prints only a hash of the variable it was given.
    const message = '!run printf %s "$AGENT_1_API_KEY" | sha256sum';
    const run = async (key: string) => {
      const res = await request('POST', '/v1/replica', { key, headers: { 'X-Api-Version': '2026-05-17' }, body: { name: 'creds', coding_agent: 'agent_1', message } });
      const id = res.body.replica.id as string;
      const events = await until('the turn\'s output', async () => {
        const done = await harness().database.db('replica_messages').where({ replica_id: id }).whereIn('status', ['completed', 'failed']).first();
        return done ? JSON.stringify(await harness().database.db('replica_agent_events').where({ replica_id: id }).select('payload')) : undefined;
      }, 60_000);
      await as(key).delete(`/v1/replica/${id}`);
      return events;
    };

    const personal = await run(member.personal_api_key);
    expect(personal).to.include(sha(personalSecret));
    expect(personal).not.to.include(sha(orgSecret));
    const organization = await run(org.org_api_key);
    expect(organization).to.include(sha(orgSecret));
    for (const text of [personal, organization, harness().logs.join('\n')]) {
      expect(text).not.to.include(personalSecret);
      expect(text).not.to.include(orgSecret);
    }
  });
});
