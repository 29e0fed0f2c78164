import { expect } from 'chai';
import { customPayload, CUSTOM_DEBOUNCE_KEY, hashWebhookToken, pullRequestDebounceKey } from '../../../../src/domain/automations/events';

describe('domain/automations/events', () => {
  it('keeps a JSON object body as the payload and wraps anything else as {raw}', () => {
    expect(customPayload(Buffer.from('{"a":1}'), 'application/json')).to.deep.equal({ a: 1 });
    expect(customPayload(Buffer.from('{"a":1}'), undefined)).to.deep.equal({ a: 1 });
    expect(customPayload(Buffer.from(' {"a":1}'), 'text/plain')).to.deep.equal({ a: 1 });
    expect(customPayload(Buffer.from('[1,2]'), 'application/json')).to.deep.equal({ raw: '[1,2]' });
    expect(customPayload(Buffer.from('{broken'), 'application/json')).to.deep.equal({ raw: '{broken' });
    expect(customPayload(Buffer.from('hello'), 'text/plain')).to.deep.equal({ raw: 'hello' });
  });

  it('debounces custom events together and code-hosting events per pull request', () => {
    expect(CUSTOM_DEBOUNCE_KEY).to.equal('custom');
    expect(pullRequestDebounceKey('r1', 12)).to.equal('pr:r1:12');
  });

  it('hashes a webhook token to hex SHA-256', () => {
    expect(hashWebhookToken('hgr_whk_x')).to.match(/^[0-9a-f]{64}$/).and.equal(hashWebhookToken('hgr_whk_x'));
    expect(hashWebhookToken('hgr_whk_y')).to.not.equal(hashWebhookToken('hgr_whk_x'));
  });
});
