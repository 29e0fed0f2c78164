import { expect } from 'chai';
import { isBlockedAddress } from '../../../../src/integrations/plugins/proxy';

describe('plugins: addresses a plugin URL may not reach', () => {
  it('refuses link-local (cloud metadata) and unspecified addresses, in every spelling', () => {
    for (const address of ['169.254.169.254', '169.254.0.1', '0.0.0.0', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:169.254.169.254']) {
      expect(isBlockedAddress(address), address).to.equal(true);
    }
  });

  it('allows public, private and loopback addresses, and leaves names to the resolver', () => {
    for (const address of ['93.184.216.34', '10.0.0.5', '192.168.1.2', '127.0.0.1', '::1', 'fd12::1', 'mcp.example.com']) {
      expect(isBlockedAddress(address), address).to.equal(false);
    }
  });
});
