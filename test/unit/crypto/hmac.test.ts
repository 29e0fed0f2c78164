import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { isHexSha256, matchesHmacSha256, streamingHmacSha256 } from '../../../src/crypto/hmac';

const hex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('crypto/hmac', () => {
  const body = 'x'.repeat(100_000);

  it('checks a body fed in pieces as it checks the whole', () => {
    const claim = hex('s3cret', body);
    const mac = streamingHmacSha256('s3cret', claim);
    for (let i = 0; i < body.length; i += 4096) mac.update(Buffer.from(body.slice(i, i + 4096)));
    expect(mac.matches()).to.equal(true);
    expect(matchesHmacSha256('s3cret', [body], claim)).to.equal(true);
    expect(matchesHmacSha256('s3cret', [body], ` ${claim.toUpperCase()} `), 'case and surrounding spaces do not matter').to.equal(true);
  });

  it('refuses another body, another secret, an empty secret and a claim that is not 64 hex digits', () => {
    const claim = hex('s3cret', body);
    const other = streamingHmacSha256('s3cret', claim);
    other.update(`${body}!`);
    expect(other.matches()).to.equal(false);
    expect(matchesHmacSha256('other', [body], claim)).to.equal(false);
    expect(matchesHmacSha256('', [body], hex('', body))).to.equal(false);
    for (const bad of [undefined, '', claim.slice(1), `sha256=${claim}`, 'z'.repeat(64)]) {
      expect(isHexSha256(bad), String(bad)).to.equal(false);
      expect(matchesHmacSha256('s3cret', [body], bad), String(bad)).to.equal(false);
    }
  });
});
