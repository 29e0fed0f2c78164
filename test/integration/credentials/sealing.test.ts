import { expect } from 'chai';
import type { AgentId } from '../../../src/agents/catalog';
import { credentialFields } from '../../../src/agents/credentials';
import { createSecretBox } from '../../../src/crypto/secretBox';
import { createCredentialsService, type OAuthTokenRefresher } from '../../../src/services/credentials';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';

describe('credential sealing: the OAuth refresh seam', () => {
  it('refreshes an expired OAuth token through the refresher, once, and stores the new one sealed', async () => {
    const org = await newOrg();
    await as(org.admin.personal_api_key).post('/v1/user/credentials/agent_1', {
      kind: 'oauth_token',
      secret: 'at-expired-0123456789abcdef',
      refresh_token: 'rt-first-0123456789abcdef',
      expires_at: '2020-01-01T00:00:00Z',
    });
    const calls: Array<{ agent: AgentId; refreshToken: string }> = [];
    const refresher: OAuthTokenRefresher = {
      async refresh(input) {
        calls.push(input);
        return { accessToken: 'at-fresh-9876543210fedcba', refreshToken: 'rt-second-9876543210fedcba', expiresAt: new Date(Date.now() + 3600_000) };
      },
    };
    const service = createCredentialsService({
      repos: harness().database.repos,
      secretBox: createSecretBox(harness().config.encryptionKeys),
      oauthRefresher: refresher,
    });
    const who = { organizationId: org.organization_id, userId: org.admin.user_id, agent: 'agent_1' as const };

    const first = await service.resolveCredential(who);
    expect(first).to.deep.include({ source: 'personal', kind: 'oauth_token', secret: 'at-fresh-9876543210fedcba' });
    expect(first!.expiresAt!.getTime()).to.be.greaterThan(Date.now());
    expect(calls).to.deep.equal([{ agent: 'agent_1', refreshToken: 'rt-first-0123456789abcdef' }]);

    // Still valid now: no second refresh, and the shared service reads the same token.
    expect((await service.resolveCredential(who))!.secret).to.equal('at-fresh-9876543210fedcba');
    expect(calls).to.have.length(1);
    expect((await harness().api.services.credentials.resolveCredential(who))!.secret).to.equal('at-fresh-9876543210fedcba');

    const row = await harness().database.db('agent_credentials').where({ id: first!.credentialId }).first();
    expect(JSON.stringify(row)).not.to.contain('fresh-98765');
    const fields = credentialFields({ organizationId: org.organization_id, userId: org.admin.user_id }, 'agent_1');
    expect(createSecretBox(harness().config.encryptionKeys).open(row.refresh_token_sealed, fields.refreshToken)).to.equal('rt-second-9876543210fedcba');
    const view = (await as(org.admin.personal_api_key).get('/v1/user/credentials/agent_1')).body.credential;
    expect(view.masked_secret).to.equal('••••dcba');
    expect(new Date(view.expires_at).getTime()).to.be.greaterThan(Date.now());
  });

  it('hands out a stored OAuth token as is when no refresher is configured', async () => {
    const org = await newOrg();
    await as(org.org_api_key).post('/v1/organization/credentials/agent_2', {
      kind: 'oauth_token',
      secret: 'at-stale-0123456789abcdef',
      refresh_token: 'rt-0123456789abcdef',
      expires_at: '2020-01-01T00:00:00Z',
    });
    const resolved = await harness().api.services.credentials.resolveCredential({ organizationId: org.organization_id, userId: null, agent: 'agent_2' });
    expect(resolved).to.deep.include({ secret: 'at-stale-0123456789abcdef', expiresAt: new Date('2020-01-01T00:00:00Z') });
  });
});
