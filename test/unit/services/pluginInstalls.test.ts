import { expect } from 'chai';
import { createSecretBox, generateEncryptionKey } from '../../../src/crypto/secretBox';
import { sealedField } from '../../../src/crypto/sealedFields';
import { parseEncryptionKeys } from '../../../src/config';
import { isDomainError } from '../../../src/domain/errors';
import type { PluginInstallRow } from '../../../src/db/pluginsRepository';
import { prepareInstall, prepareUpdate, serializePlugin } from '../../../src/services/plugins/installs';

const box = createSecretBox(parseEncryptionKeys(generateEncryptionKey('unit')));
const capable = { github: true };
const SECRET = 'a-plugin-secret-0123456789';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isDomainError(err, 'invalid')) return `${err.message}: ${err.details}`;
    throw err;
  }
  throw new Error('expected a refusal');
}

const ROW_ID = '00000000-0000-4000-8000-000000000001';
const configField = (id: string) => sealedField('plugin_installs', 'config_sealed', id);
const secretField = (id: string) => sealedField('plugin_installs', 'secret_sealed', id);

const row = (over: Partial<PluginInstallRow>): PluginInstallRow => ({
  id: ROW_ID,
  organization_id: '00000000-0000-4000-8000-000000000002',
  user_id: null,
  slug: 'docs',
  name: 'docs',
  kind: 'http',
  provides: null,
  config_sealed: box.seal(JSON.stringify({ url: 'https://x.test/mcp', headers: { 'X-Key': 'k' } }), configField(ROW_ID)),
  secret_sealed: null,
  secret_type: null,
  secret_header: null,
  enabled: true,
  created_by: null,
  created_at: new Date(0),
  updated_at: new Date(0),
  ...over,
});

describe('plugins: what an install may hold', () => {
  it('seals an http config and its secret apart, defaulting the secret to a bearer token', () => {
    const write = prepareInstall({ slug: 'docs', kind: 'http', config: { url: 'https://x.test/mcp' }, secret: { type: 'api_key', value: SECRET } }, box, capable);
    expect(write).to.include({ secret_type: 'api_key', secret_header: 'Authorization', provides: null, enabled: true, name: 'docs' });
    expect(box.open(write.secret_sealed!, secretField(write.id))).to.equal(SECRET);
    expect(JSON.parse(box.open(write.config_sealed!, configField(write.id)))).to.deep.equal({ url: 'https://x.test/mcp', headers: {} });
    // Sealed apart and for this install: the secret does not open as its config, nor as another install's.
    expect(() => box.open(write.secret_sealed!, configField(write.id))).to.throw(/does not open/);
    expect(() => box.open(write.secret_sealed!, secretField(ROW_ID))).to.throw(/does not open/);
  });

  it('refuses a secret on a stdio plugin, saying it would enter the container', () => {
    expect(refusal(() => prepareInstall({ slug: 'local', kind: 'stdio', config: { command: 'x' }, secret: { type: 'api_key', value: SECRET } }, box, capable))).to.include('runs inside the workspace container');
  });

  it('refuses a native plugin the deployment cannot serve', () => {
    expect(refusal(() => prepareInstall({ slug: 'github', kind: 'native' }, box, { github: false }))).to.include('HANGAR_GITHUB_APP_ID');
    expect(prepareInstall({ slug: 'github', kind: 'native' }, box, capable)).to.include({ provides: 'github', name: 'GitHub', config_sealed: null });
  });

  it('refuses headers Hangar sets, and a secret header the config already uses', () => {
    expect(refusal(() => prepareInstall({ slug: 'd', kind: 'http', config: { url: 'https://x.test', headers: { 'Mcp-Session-Id': 'x' } } }, box, capable))).to.include('Hangar sets this header');
    expect(refusal(() => prepareInstall({ slug: 'd', kind: 'http', config: { url: 'https://x.test', headers: { 'X-Key': 'a' } }, secret: { type: 'api_key', value: SECRET, header: 'x-key' } }, box, capable))).to.include('the secret is sent in this header');
    expect(refusal(() => prepareUpdate(row({}), { secret: { type: 'api_key', value: SECRET, header: 'X-Key' } }, box))).to.include('the secret is sent in this header');
  });

  it('changes only what a PATCH names, and removes a secret with null', () => {
    const sealed = row({ secret_sealed: box.seal(SECRET, secretField(ROW_ID)), secret_type: 'oauth_token', secret_header: 'Authorization' });
    expect(prepareUpdate(sealed, { enabled: false }, box)).to.deep.equal({ enabled: false });
    expect(prepareUpdate(sealed, { secret: null }, box)).to.deep.equal({ secret_sealed: null, secret_type: null, secret_header: null });
  });

  it('drops the secret when the URL changes, unless the same PATCH sets one', () => {
    const sealed = row({ secret_sealed: box.seal(SECRET, secretField(ROW_ID)), secret_type: 'api_key', secret_header: 'X-Key-Out' });
    const cleared = { secret_sealed: null, secret_type: null, secret_header: null };
    expect(prepareUpdate(sealed, { config: { url: 'https://elsewhere.test/mcp' } }, box)).to.include(cleared);
    expect(prepareUpdate(sealed, { config: { url: 'https://x.test/other' } }, box), 'another path').to.include(cleared);
    // The same URL (other headers) keeps it; so does a request that names the secret again.
    expect(prepareUpdate(sealed, { config: { url: 'https://x.test/mcp', headers: { 'X-Key': 'k2' } } }, box)).not.to.have.property('secret_sealed');
    const rekeyed = prepareUpdate(sealed, { config: { url: 'https://elsewhere.test/mcp' }, secret: { type: 'api_key', value: `${SECRET}-new` } }, box);
    expect(box.open(rekeyed.secret_sealed!, secretField(ROW_ID))).to.equal(`${SECRET}-new`);
    // Without the secret, its header no longer constrains the new config.
    expect(prepareUpdate(sealed, { config: { url: 'https://elsewhere.test/mcp', headers: { 'X-Key-Out': 'plain' } } }, box)).to.include(cleared);
  });

  it('answers which secret is set, never the secret', () => {
    const view = serializePlugin(row({ secret_sealed: box.seal(SECRET, secretField(ROW_ID)), secret_type: 'api_key', secret_header: 'X-Api-Key' }), box);
    expect(view.secret).to.deep.equal({ type: 'api_key', header: 'X-Api-Key' });
    expect(JSON.stringify(view)).not.to.include(SECRET);
    expect(view.scope).to.equal('org');
  });
});
