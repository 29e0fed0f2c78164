/** User-chosen URLs cannot point Hangar at internal networks or cloud metadata (the SSRF guard). */
import { expect } from 'chai';
import { errorOf, newOrg, request } from '../../support/http';

describe('outbound URLs a user chooses', () => {
  it('refuses a webhook_url on an internal network or at the metadata address, naming the rule', async () => {
    const { org_api_key: key } = await newOrg('ssrf');
    const create = (webhook_url: unknown) => request('POST', '/v1/replica', { key, headers: { 'x-api-version': '2026-05-17' }, body: { name: 'ssrf', message: 'hi', webhook_url } });
    for (const [url, rule] of [
      ['http://169.254.169.254/latest/meta-data/', /link-local or unspecified/],
      ['http://10.20.30.40/hook', /internal network/],
      ['http://[fd00::1]/hook', /internal network/],
      [{ url: 'http://192.168.0.10/hook', secret: 's' }, /internal network/],
    ] as const) {
      const res = await create(url);
      expect(res.status, JSON.stringify(url)).to.equal(400);
      expect(errorOf(res).details).to.match(/^body\.webhook_url: /).and.match(rule);
    }
  });
});
