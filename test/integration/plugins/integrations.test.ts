/**
 * The environment block's `integrations` without plugins: a code host is available when the
 * workspace has its repositories and the deployment holds its API credentials (the suite's
 * GitHub App, and its GitLab token), Slack and Linear when the organization is connected.
 */
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { expectShape } from '../../support/originalShapes';

describe('plugins: integrations of a workspace without plugins', function () {
  this.timeout(120_000);

  it('follows the repositories, the deployment credentials and the connections', async () => {
    const org = await newOrg('integrations');
    const api = as(org.org_api_key);
    const { admin } = harness();
    const github = await admin.addRepository({ organizationId: org.organization_id, url: 'https://github.com/acme/service' });
    const gitlab = await admin.addRepository({ organizationId: org.organization_id, url: 'git@gitlab.com:acme/tools.git' });
    const create = async (name: string, repositoryId: string | null) => {
      const env = (await api.post('/v1/environments', { name, repository_id: repositoryId })).body.environment;
      const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: { 'X-Api-Version': '2026-05-17' }, body: { name, message: 'hello', environment_id: env.id } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body.replica.id as string;
    };
    const onGithub = await create('on-github', github.id);
    const onGitlab = await create('on-gitlab', gitlab.id);
    const bare = await create('bare', null);
    const integrations = async (id: string) => {
      const env = (await api.get(`/v1/replica/${id}?include=environment`)).body.replica.environment;
      expectShape('ReplicaEnvironment', env);
      expect(env.plugins).to.deep.equal([]);
      return env.integrations;
    };
    const none = { github: false, gitlab: false, linear: false, slack: false, google: false };
    try {
      expect(await integrations(onGithub)).to.deep.equal({ ...none, github: true });
      // GitLab repositories, and the deployment's GitLab token (HANGAR_GITLAB_TOKEN).
      expect(harness().config.gitlab.token).to.be.a('string');
      expect(await integrations(onGitlab)).to.deep.equal({ ...none, gitlab: true });
      expect(await integrations(bare)).to.deep.equal(none);

      // The organization connects Slack and Linear (/v1/connections, admins).
      const connect = (body: unknown) => api.post('/v1/connections', body);
      expect((await connect({ provider: 'slack', external_id: `T${Date.now()}`, name: 'acme', secrets: { bot_token: 'xoxb-test', signing_secret: 'signing' } })).status).to.equal(201);
      expect(await integrations(bare)).to.deep.equal({ ...none, slack: true });
      const linear = await connect({ provider: 'linear', external_id: `lin-${org.organization_id}`, name: 'acme', secrets: { access_token: 'lin_test', webhook_secret: 'whs' }, settings: { app_user_id: 'app-user' } });
      expect(linear.status, JSON.stringify(linear.body)).to.equal(201);
      expect(await integrations(bare)).to.deep.equal({ ...none, slack: true, linear: true });
      expect(await integrations(onGithub)).to.deep.equal({ ...none, github: true, slack: true, linear: true });
    } finally {
      for (const id of [onGithub, onGitlab, bare]) await api.delete(`/v1/replica/${id}`);
    }
  });
});
