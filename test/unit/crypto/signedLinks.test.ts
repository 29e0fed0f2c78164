import { expect } from 'chai';
import { parseEncryptionKeys } from '../../../src/config';
import { generateEncryptionKey } from '../../../src/crypto/secretBox';
import { createSignedLinks } from '../../../src/crypto/signedLinks';

describe('signed links', () => {
  const oldKey = generateEncryptionKey('k1');
  const newKey = generateEncryptionKey('k2');
  const links = createSignedLinks(parseEncryptionKeys(oldKey));
  const inAMinute = () => new Date(Date.now() + 60_000);

  it('returns the claims of a token it signed, with its expiry', () => {
    const expiresAt = inAMinute();
    const claims = links.verify('media', links.sign('media', { id: 'm1', disposition: 'inline' }, expiresAt));
    expect(claims).to.deep.equal({ id: 'm1', disposition: 'inline', exp: Math.floor(expiresAt.getTime() / 1000) });
  });

  it('refuses a token for another purpose, an expired one and a tampered one', () => {
    const token = links.sign('media', { id: 'm1' }, inAMinute());
    expect(links.verify('preview', token)).to.equal(null);
    expect(links.verify('media', token, new Date(Date.now() + 120_000))).to.equal(null);
    const [keyId, , mac] = token.split('.');
    const forged = `${keyId}.${Buffer.from(JSON.stringify({ id: 'm2', exp: 9e9 })).toString('base64url')}.${mac}`;
    expect(links.verify('media', forged)).to.equal(null);
    expect(links.verify('media', 'not-a-token')).to.equal(null);
    expect(links.verify('media', `${token}x`)).to.equal(null);
  });

  it('verifies tokens of an older key during a rotation, and not after the key is removed', () => {
    const token = links.sign('media', { id: 'm1' }, inAMinute());
    const rotated = createSignedLinks(parseEncryptionKeys(`${newKey},${oldKey}`));
    expect(rotated.verify('media', token)).to.include({ id: 'm1' });
    expect(rotated.sign('media', { id: 'm1' }, inAMinute()).startsWith('k2.')).to.equal(true);
    expect(createSignedLinks(parseEncryptionKeys(newKey)).verify('media', token)).to.equal(null);
  });

  it('does not let claims set their own expiry', () => {
    expect(() => links.sign('media', { exp: 1 }, inAMinute())).to.throw(/exp/);
  });
});
