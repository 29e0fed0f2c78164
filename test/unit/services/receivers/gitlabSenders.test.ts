/**
 * Who a GitLab delivery comes from, by its token alone: an organization's connection (found by
 * the token's keyed hash, confirmed against the row's own sealed token), or the deployment's
 * token while the deployment has exactly one organization.
 */
import { expect } from 'chai';
import { parseEncryptionKeys } from '../../../../src/config';
import { createLookupHashes, GITLAB_WEBHOOK_TOKEN_PURPOSE } from '../../../../src/crypto/lookupHashes';
import { sealedField } from '../../../../src/crypto/sealedFields';
import { createSecretBox, generateEncryptionKey } from '../../../../src/crypto/secretBox';
import type { SealedConnectionRow } from '../../../../src/db/connectionsRepository';
import { DomainError } from '../../../../src/domain/errors';
import { createLogger } from '../../../../src/logger';
import { createGitlabSenders } from '../../../../src/services/receivers/gitlabSenders';

const oldKeys = parseEncryptionKeys(generateEncryptionKey('old'));
const keys = [...parseEncryptionKeys(generateEncryptionKey('new')), ...oldKeys];
const box = createSecretBox(keys);
const DEPLOYMENT_TOKEN = 'deployment-wide-token-0123';

/** A GitLab connection row as stored, its token hashed under `hashKeys`' active key. */
function row(id: string, organizationId: string, token: string, hashKeys = keys): SealedConnectionRow & { webhook_token_hash: string; webhook_token_key_id: string } {
  const { hash, keyId } = createLookupHashes(hashKeys).current(GITLAB_WEBHOOK_TOKEN_PURPOSE, token);
  return {
    id,
    organization_id: organizationId,
    provider: 'gitlab',
    external_id: `gitlab.com/${id}`,
    name: 'GitLab',
    settings: {},
    created_by: null,
    created_at: new Date(),
    updated_at: new Date(),
    secrets_sealed: box.seal(JSON.stringify({ webhook_token: token, api_token: 'glpat-x' }), sealedField('connections', 'secrets_sealed', id)),
    webhook_token_hash: hash,
    webhook_token_key_id: keyId,
  };
}

function senders(rows: Array<ReturnType<typeof row>>, organizations: string[]) {
  const logs: string[] = [];
  const queries: number[] = [];
  const resolver = createGitlabSenders({
    connections: {
      findGitlabByTokenHashes: async (hashes) => {
        queries.push(hashes.length);
        return rows.filter((r) => hashes.some((h) => h.hash === r.webhook_token_hash && h.keyId === r.webhook_token_key_id));
      },
    },
    identity: { soleOrganization: async () => (organizations.length === 1 ? organizations[0]! : null) },
    secretBox: box,
    lookupHashes: createLookupHashes(keys),
    deploymentToken: DEPLOYMENT_TOKEN,
    logger: createLogger({ level: 'debug', write: (line) => logs.push(line) }),
  });
  return { resolver, logs, queries };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(DomainError);
  expect(err).to.include({ kind: 'unauthenticated', message: 'Invalid webhook token' });
  return err as DomainError;
}

describe('services/receivers/gitlab senders', () => {
  it("names the organization whose connection's token it is, under the active key or an older one", async () => {
    const { resolver, queries } = senders([row('c-a', 'org-a', 'token-of-org-a-0001'), row('c-b', 'org-b', 'token-of-org-b-0002', oldKeys)], ['org-a', 'org-b']);
    expect(await resolver.resolve('token-of-org-a-0001')).to.deep.equal({ kind: 'connection', organizations: [{ organizationId: 'org-a', connectionId: 'c-a' }] });
    // Hashed before the rotation: found by the older key's hash.
    expect(await resolver.resolve('token-of-org-b-0002')).to.deep.equal({ kind: 'connection', organizations: [{ organizationId: 'org-b', connectionId: 'c-b' }] });
    // One lookup per delivery, with one hash per configured key.
    expect(queries).to.deep.equal([2, 2]);
  });

  it("refuses a token no connection has, and a hash copied onto another organization's row", async () => {
    const victim = row('c-victim', 'org-victim', 'victim-token-000001');
    const forged = { ...row('c-forger', 'org-forger', 'forger-token-000001'), webhook_token_hash: victim.webhook_token_hash, webhook_token_key_id: victim.webhook_token_key_id };
    const { resolver } = senders([forged], ['org-victim', 'org-forger']);
    expect((await refusal(resolver.resolve('victim-token-000001'))).details).to.equal('X-Gitlab-Token matches no GitLab connection');
    await refusal(resolver.resolve('anything-else-0001'));
    await refusal(resolver.resolve(undefined));
    await refusal(resolver.resolve(''));
  });

  it('accepts the deployment token for the only organization of a deployment', async () => {
    const { resolver } = senders([], ['org-only']);
    expect(await resolver.resolve(DEPLOYMENT_TOKEN)).to.deep.equal({ kind: 'deployment', organizations: [{ organizationId: 'org-only', connectionId: null }] });
  });

  it('refuses the deployment token, with a warning, once there are several organizations', async () => {
    const { resolver, logs } = senders([], ['org-a', 'org-b']);
    const err = await refusal(resolver.resolve(DEPLOYMENT_TOKEN));
    expect(err.details).to.match(/not accepted while the deployment has more than one organization/);
    const warnings = logs.map((l) => JSON.parse(l) as { level: string; msg: string }).filter((l) => l.level === 'warn');
    expect(warnings.map((w) => w.msg)).to.have.length(1);
    expect(warnings[0]!.msg).to.include('HANGAR_GITLAB_WEBHOOK_TOKEN').and.include('POST /v1/connections');
    expect(logs.join('\n')).to.not.include(DEPLOYMENT_TOKEN);
  });
});
