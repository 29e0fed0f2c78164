/** The code-hosting settings through /v1/organization/settings: the auto-responder allowlist and the CI-failure response. */
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf } from '../../support/http';
import { orgWithRepository } from './support';

describe('code-hosting settings', () => {
  it('stores the allowlist (logins normalised, repositories of the organization only) and the CI-failure switch', async () => {
    const { org, adminApi, repo } = await orgWithRepository('settings');
    const other = await orgWithRepository('settings-other');

    const defaults = (await adminApi.get('/v1/organization/settings')).body.settings;
    expect(defaults).to.deep.include({ auto_responder_allowlist: { logins: [], repository_ids: [] }, ci_failure_response: true });

    const set = await adminApi.patch('/v1/organization/settings', { auto_responder_allowlist: { logins: ['@Alice', 'alice', 'dependabot[bot]'], repository_ids: [repo.id] }, ci_failure_response: false });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body.settings).to.deep.include({ auto_responder_allowlist: { logins: ['alice', 'dependabot[bot]'], repository_ids: [repo.id] }, ci_failure_response: false });

    // A list given replaces that list only; other settings stay.
    const logins = await adminApi.patch('/v1/organization/settings', { auto_responder_allowlist: { logins: ['bob'] } });
    expect(logins.body.settings).to.deep.include({ auto_responder_allowlist: { logins: ['bob'], repository_ids: [repo.id] }, ci_failure_response: false, default_coding_agent: 'agent_1' });

    // Another organization's repository is as unknown as a missing one.
    const foreign = await adminApi.patch('/v1/organization/settings', { auto_responder_allowlist: { repository_ids: [other.repo.id] } });
    expect(foreign.status).to.equal(400);
    expect(errorOf(foreign).details).to.include(other.repo.id);
    for (const body of [{ auto_responder_allowlist: {} }, { auto_responder_allowlist: { logins: ['not a login'] } }, { ci_failure_response: 'no' }]) {
      expect((await adminApi.patch('/v1/organization/settings', body)).status, JSON.stringify(body)).to.equal(400);
    }

    // Members read them and may not change them.
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'dev@example.com', role: 'member' });
    const memberApi = as(member.personal_api_key);
    expect((await memberApi.get('/v1/organization/settings')).body.settings.auto_responder_allowlist.logins).to.deep.equal(['bob']);
    expect((await memberApi.patch('/v1/organization/settings', { ci_failure_response: true })).status).to.equal(403);
  });
});
