import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { slackSignature, verifySlackSignature } from '../../../../src/integrations/slack/signature';

describe('integrations/slack/signature', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = Buffer.from('token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&command=%2Fweather');
  const now = 1531420618;

  it('signs as Slack documents: v0= hex HMAC-SHA256 of v0:{timestamp}:{body}', () => {
    const expected = `v0=${createHmac('sha256', secret).update(`v0:${now}:${body.toString()}`).digest('hex')}`;
    expect(slackSignature(secret, String(now), body)).to.equal(expected);
    expect(slackSignature(secret, String(now), body.toString())).to.equal(expected);
  });

  it('accepts the right signature within five minutes either way', () => {
    const signature = slackSignature(secret, String(now), body);
    expect(verifySlackSignature(secret, { timestamp: String(now), signature }, body, now)).to.equal('ok');
    expect(verifySlackSignature(secret, { timestamp: String(now), signature }, body, now + 300)).to.equal('ok');
    expect(verifySlackSignature(secret, { timestamp: String(now), signature }, body, now - 300)).to.equal('ok');
  });

  it('refuses a timestamp more than five minutes old or ahead, even correctly signed', () => {
    const signature = slackSignature(secret, String(now), body);
    expect(verifySlackSignature(secret, { timestamp: String(now), signature }, body, now + 301)).to.equal('stale');
    expect(verifySlackSignature(secret, { timestamp: String(now), signature }, body, now - 301)).to.equal('stale');
    expect(verifySlackSignature(secret, { timestamp: 'yesterday', signature }, body, now)).to.equal('stale');
  });

  it('refuses another secret, another body, a changed timestamp and malformed headers', () => {
    const signature = slackSignature(secret, String(now), body);
    expect(verifySlackSignature('other-secret', { timestamp: String(now), signature }, body, now)).to.equal('mismatch');
    expect(verifySlackSignature(secret, { timestamp: String(now), signature }, Buffer.from(`${body}&x=1`), now)).to.equal('mismatch');
    expect(verifySlackSignature(secret, { timestamp: String(now + 1), signature }, body, now)).to.equal('mismatch');
    expect(verifySlackSignature(secret, { timestamp: String(now), signature: signature.toUpperCase() }, body, now)).to.equal('mismatch');
    expect(verifySlackSignature(secret, { timestamp: String(now), signature: 'v0=abc' }, body, now)).to.equal('mismatch');
    expect(verifySlackSignature(secret, { timestamp: String(now), signature: undefined }, body, now)).to.equal('missing');
    expect(verifySlackSignature(secret, { timestamp: undefined, signature }, body, now)).to.equal('missing');
  });
});
