import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const NO_MODELS = { agent_1: null, agent_2: null, agent_3: null, agent_4: null, agent_5: null };
const MISSING = '00000000-0000-4000-8000-000000000000';

async function orgWithMember() {
  const org = await newOrg();
  const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'member@example.com', role: 'member' });
  return { org, admin: as(org.admin.personal_api_key), orgKey: as(org.org_api_key), memberApi: as(member.personal_api_key) };
}

describe('organization settings API', () => {
  it('answers the defaults to any member before anything is set', async () => {
    const { memberApi } = await orgWithMember();
    const res = await memberApi.get('/v1/organization/settings');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      settings: {
        default_coding_agent: 'agent_1',
        default_models: NO_MODELS,
        default_environment_id: null,
        auto_responder_allowlist: { logins: [], repository_ids: [] },
        ci_failure_response: true,
        updated_at: null,
      },
    });
  });

  it('lets admins change the defaults, merging default_models, and members read them', async () => {
    const { admin, orgKey, memberApi } = await orgWithMember();
    const team = (await admin.post('/v1/environments', { name: 'backend' })).body.environment;
    const first = await admin.patch('/v1/organization/settings', {
      default_coding_agent: 'agent_3',
      default_models: { agent_3: 'a1-coder' },
      default_environment_id: team.id,
    });
    expect(first.status).to.equal(200);
    expect(first.body.settings).to.deep.include({
      default_coding_agent: 'agent_3',
      default_models: { ...NO_MODELS, agent_3: 'a1-coder' },
      default_environment_id: team.id,
    });
    expect(first.body.settings.updated_at).to.be.a('string');

    // Only the agents named change; null clears one; other fields stay.
    const second = await orgKey.patch('/v1/organization/settings', { default_models: { agent_4: 'moonshotai/kimi-k2.6' } });
    expect(second.body.settings.default_models).to.deep.equal({ ...NO_MODELS, agent_3: 'a1-coder', agent_4: 'moonshotai/kimi-k2.6' });
    expect(second.body.settings).to.include({ default_coding_agent: 'agent_3', default_environment_id: team.id });
    const third = await admin.patch('/v1/organization/settings', { default_models: { agent_3: null }, default_environment_id: null });
    expect(third.body.settings).to.deep.include({ default_models: { ...NO_MODELS, agent_4: 'moonshotai/kimi-k2.6' }, default_environment_id: null });

    expect((await memberApi.get('/v1/organization/settings')).body).to.deep.equal(third.body);
  });

  it('refuses changes from members with 403', async () => {
    const { memberApi } = await orgWithMember();
    const res = await memberApi.patch('/v1/organization/settings', { default_coding_agent: 'agent_2' });
    expect(res.status).to.equal(403);
    expect(errorOf(res).error).to.match(/admins/);
    expect((await memberApi.get('/v1/organization/settings')).body.settings.default_coding_agent).to.equal('agent_1');
  });

  it('rejects bad input with 400 naming the field', async () => {
    const { admin } = await orgWithMember();
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^body: must NOT have fewer than 1 properties$/],
      [{ default_coding_agent: 'agent_9' }, /^body\.default_coding_agent: must be one of agent_1/],
      [{ default_coding_agent: null }, /^body\.default_coding_agent: must be one of/],
      [{ default_models: { agent_9: 'x' } }, /^body\.default_models\.agent_9: unknown field$/],
      [{ default_models: { agent_3: 'z-ai/glm-5.2' } }, /^body\.default_models\.agent_3: agent_3 does not accept the model "z-ai\/glm-5\.2"$/],
      [{ default_models: { agent_1: 'a1-large' } }, /^body\.default_models\.agent_1: /],
      [{ default_models: { agent_2: '' } }, /^body\.default_models\.agent_2: /],
      [{ default_environment_id: 'backend' }, /^body\.default_environment_id: must match format "uuid"$/],
      [{ theme: 'dark' }, /^body\.theme: unknown field$/],
    ];
    for (const [body, details] of cases) {
      const res = await admin.patch('/v1/organization/settings', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    }
    expect((await admin.get('/v1/organization/settings')).body.settings.updated_at).to.equal(null);
  });

  it('accepts only a team environment of the organization as the default environment', async () => {
    const { org, admin } = await orgWithMember();
    const missing = await admin.patch('/v1/organization/settings', { default_environment_id: MISSING });
    expect(missing.status).to.equal(404);
    expect(errorOf(missing).error).to.equal('Environment not found');

    const other = await newOrg();
    const foreign = (await as(other.org_api_key).post('/v1/environments', { name: 'theirs' })).body.environment;
    expect((await admin.patch('/v1/organization/settings', { default_environment_id: foreign.id })).status).to.equal(404);

    const personal = (await admin.post('/v1/environments', { name: 'mine', scope: 'user' })).body.environment;
    const refused = await admin.patch('/v1/organization/settings', { default_environment_id: personal.id });
    expect(refused.status).to.equal(400);
    expect(errorOf(refused).details).to.match(/^body\.default_environment_id: must be a team environment/);

    // Global is a team environment too.
    const global = await admin.patch('/v1/organization/settings', { default_environment_id: org.global_environment_id });
    expect(global.body.settings.default_environment_id).to.equal(org.global_environment_id);
  });

  it('keeps the default environment from being deleted (409) until it is changed', async () => {
    const { admin } = await orgWithMember();
    const team = (await admin.post('/v1/environments', { name: 'default-env' })).body.environment;
    await admin.patch('/v1/organization/settings', { default_environment_id: team.id });

    const blocked = await admin.delete(`/v1/environments/${team.id}`);
    expect(blocked.status).to.equal(409);
    expect(errorOf(blocked).details).to.match(/the organization's default environment/);
    expect((await admin.get(`/v1/environments/${team.id}`)).status).to.equal(200);

    await admin.patch('/v1/organization/settings', { default_environment_id: null });
    expect((await admin.delete(`/v1/environments/${team.id}`)).body).to.deep.equal({ success: true });
  });

  it('resolves null and incompatible agent and model choices to the defaults', async () => {
    const { org, admin } = await orgWithMember();
    const resolve = harness().api.services.organizationSettings.resolveAgentAndModel;
    const id = org.organization_id;

    // Nothing set: agent_1 and its built-in default.
    expect(await resolve(id, {})).to.deep.equal({ agent: 'agent_1', model: 'agent_1-default' });
    expect(await resolve(id, { agent: 'agent_4', model: null })).to.deep.equal({ agent: 'agent_4', model: 'z-ai/glm-5.2' });

    await admin.patch('/v1/organization/settings', { default_coding_agent: 'agent_3', default_models: { agent_3: 'a1-coder' } });
    expect(await resolve(id, { agent: null, model: null })).to.deep.equal({ agent: 'agent_3', model: 'a1-coder' });
    // A compatible request wins; an incompatible one falls back to the organization's default for the agent.
    expect(await resolve(id, { model: 'a1-small' })).to.deep.equal({ agent: 'agent_3', model: 'a1-small' });
    expect(await resolve(id, { model: 'moonshotai/kimi-k2.6' })).to.deep.equal({ agent: 'agent_3', model: 'a1-coder' });
    // Another agent without an organization default falls back to the agent's own default.
    expect(await resolve(id, { agent: 'agent_2', model: 'a1-coder' })).to.deep.equal({ agent: 'agent_2', model: 'agent_2-default' });
    expect(await resolve(id, { agent: 'agent_5', model: 'moonshotai/kimi-k2.6' })).to.deep.equal({ agent: 'agent_5', model: 'moonshotai/kimi-k2.6' });
  });
});
