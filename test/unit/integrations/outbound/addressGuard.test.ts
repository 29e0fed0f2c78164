import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { request } from 'undici';
import { createOutboundPolicy, isNeverReachable } from '../../../../src/integrations/outbound/addressGuard';

describe('integrations/outbound address guard', () => {
  it('never reaches metadata or unspecified addresses, even allowlisted', () => {
    const policy = createOutboundPolicy(['0.0.0.0/0', '::/0']);
    for (const address of ['169.254.169.254', '0.0.0.0', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:169.254.169.254']) {
      expect(policy.refusal(address), address).to.match(/link-local or unspecified/);
      expect(isNeverReachable(address), address).to.equal(true);
    }
  });

  it('refuses internal networks unless allowlisted by CIDR or host name', () => {
    const closed = createOutboundPolicy([]);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.1', '100.64.0.1', '224.0.0.1', '::1', 'fd12::1', '::ffff:10.0.0.1']) {
      expect(closed.refusal(address), address).to.match(/internal network/);
    }
    expect(closed.refusal('93.184.216.34')).to.equal(null);
    const open = createOutboundPolicy(['10.0.0.0/8', 'hooks.internal']);
    expect(open.refusal('10.9.9.9')).to.equal(null);
    expect(open.refusal('192.168.1.1')).to.match(/internal network/);
    expect(open.refusal('192.168.1.1', 'hooks.internal')).to.equal(null);
  });

  it('checks URLs by literal and by what their name resolves to', async () => {
    const policy = createOutboundPolicy([]);
    expect(await policy.checkUrl('http://[::1]:8080/x')).to.match(/internal network/);
    expect(await policy.checkUrl('http://169.254.169.254/latest/meta-data/')).to.match(/link-local/);
    expect(await policy.checkUrl('http://localhost:9/x')).to.match(/internal network/);
    expect(await policy.checkUrl('not a url')).to.equal('not a URL');
  });

  it('refuses at connect time a name that resolves to a refused address', async () => {
    const server = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const closed = createOutboundPolicy([]);
      const refused = await request(`http://localhost:${port}/`, { dispatcher: closed.agent }).then(
        () => null,
        (err: { cause?: { code?: string }; code?: string }) => err.cause?.code ?? err.code,
      );
      expect(refused).to.equal('EADDRNOTALLOWED');
      const open = createOutboundPolicy(['127.0.0.0/8', '::1']);
      const answer = await request(`http://localhost:${port}/`, { dispatcher: open.agent });
      expect(await answer.body.text()).to.equal('reached');
      await closed.agent.close();
      await open.agent.close();
    } finally {
      server.close();
    }
  });
});
