import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import { createSignedLinks } from '../../../src/crypto/signedLinks';
import { createRelayGrants, GRANT_TTL_MS } from '../../../src/previews/relayGrants';

const key = (id: string) => ({ id, key: randomBytes(32) });
const replicaId = '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('previews: relay grants', () => {
  const k1 = key('k1');
  const grants = createRelayGrants([k1]);

  it('carries the workspace and port it was issued for, until it expires', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const token = grants.issue({ replicaId, port: 3000 }, now);
    expect(grants.verify(token, now)).to.deep.equal({ replicaId, port: 3000 });
    expect(grants.verify(token, new Date(now.getTime() + GRANT_TTL_MS - 1500))).to.deep.equal({ replicaId, port: 3000 });
    expect(grants.verify(token, new Date(now.getTime() + GRANT_TTL_MS))).to.equal(null);
  });

  it('refuses tampering, other keys, other purposes and junk', () => {
    const token = grants.issue({ replicaId, port: 3000 });
    const [id, body, mac] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, p: 3001 })).toString('base64url');
    expect(grants.verify(`${id}.${forged}.${mac}`)).to.equal(null);
    expect(createRelayGrants([key('k1')]).verify(token), 'another deployment\'s key').to.equal(null);
    for (const junk of [undefined, '', 'a.b.c', token.slice(0, -2), `${token}x`]) expect(grants.verify(junk), String(junk)).to.equal(null);
  });

  it('is signed under a key of its own: a preview link token is no grant, and a grant is no link', () => {
    const links = createSignedLinks([k1]);
    const exp = new Date(Date.now() + 60_000);
    // Same keys, same purpose string and claims: only the HKDF label differs.
    const linkToken = links.sign('preview-relay', { r: replicaId, p: 3000 }, exp);
    expect(grants.verify(linkToken)).to.equal(null);
    expect(links.verify('preview-relay', grants.issue({ replicaId, port: 3000 }))).to.equal(null);
  });

  it('still verifies grants of an older key during a rotation', () => {
    const k2 = key('k2');
    const old = createRelayGrants([k1]).issue({ replicaId, port: 8080 });
    expect(createRelayGrants([k2, k1]).verify(old)).to.deep.equal({ replicaId, port: 8080 });
  });
});

describe('config: the preview relay settings', () => {
  it('is off without a port, and needs the URL API processes reach it at', () => {
    expect(loadConfig({}).previewRelay).to.equal(null);
    expect(loadConfig({}).previewDial).to.equal('auto');
    expect(loadConfig({ HANGAR_WORKER_RELAY_PORT: '9470', HANGAR_WORKER_RELAY_URL: 'http://worker-1:9470/' }).previewRelay).to.deep.equal({ port: 9470, host: '0.0.0.0', url: 'http://worker-1:9470' });
    expect(loadConfig({ HANGAR_WORKER_RELAY_PORT: '9470', HANGAR_WORKER_RELAY_HOST: '10.0.0.5', HANGAR_WORKER_RELAY_URL: 'https://w1.internal' }).previewRelay).to.deep.equal({ port: 9470, host: '10.0.0.5', url: 'https://w1.internal' });
    expect(() => loadConfig({ HANGAR_WORKER_RELAY_PORT: '9470' })).to.throw(/HANGAR_WORKER_RELAY_URL/);
    expect(() => loadConfig({ HANGAR_WORKER_RELAY_URL: 'http://w:1' })).to.throw(/HANGAR_WORKER_RELAY_PORT/);
    for (const url of ['ftp://w:1', 'http://w:1/relay', 'http://w:1/?a=b', 'http://u:p@w:1', 'not a url']) {
      expect(() => loadConfig({ HANGAR_WORKER_RELAY_PORT: '9470', HANGAR_WORKER_RELAY_URL: url }), url).to.throw(/HANGAR_WORKER_RELAY_URL/);
    }
    for (const port of ['0', '70000', 'x']) expect(() => loadConfig({ HANGAR_WORKER_RELAY_PORT: port, HANGAR_WORKER_RELAY_URL: 'http://w:1' }), port).to.throw(/HANGAR_WORKER_RELAY_PORT/);
    expect(loadConfig({ HANGAR_PREVIEW_DIAL: 'relay' }).previewDial).to.equal('relay');
    expect(() => loadConfig({ HANGAR_PREVIEW_DIAL: 'direct' })).to.throw(/HANGAR_PREVIEW_DIAL/);
  });
});
