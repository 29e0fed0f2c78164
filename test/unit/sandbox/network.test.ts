import { expect } from 'chai';
import { allowEntry, egressRuleset, ipv4Cidr } from '../../../src/sandbox/network/egress';
import { bridgeName, freeSubnets, organizationNetworkName, routedPrefixes } from '../../../src/sandbox/network/networks';

describe('sandbox network: egress rules and subnets', () => {
  it('refuses internal ranges after the allowlist and resolvers, and ends open only in public mode', () => {
    const rules = egressRuleset({ mode: 'public', allow: ['10.1.2.3', '192.168.5.0/24'], resolvers: ['10.255.255.53'] }).split('\n');
    const at = (pattern: string) => rules.findIndex((l) => l.includes(pattern));
    expect(at('-d 10.1.2.3/32 -j RETURN')).to.be.greaterThan(0);
    expect(at('-d 10.1.2.3/32')).to.be.lessThan(at('-d 10.0.0.0/8'));
    expect(at('-d 10.255.255.53/32 -p udp --dport 53 -j RETURN')).to.be.lessThan(at('-d 10.0.0.0/8'));
    expect(at('-d 169.254.0.0/16 -p tcp -j REJECT')).to.be.greaterThan(0);
    expect(rules.filter((l) => l.startsWith('-A HANGAR-EGRESS')).pop()).to.equal('-A HANGAR-EGRESS -j RETURN');
    const closed = egressRuleset({ mode: 'allowlist', allow: [], resolvers: [] }).split('\n');
    expect(closed).to.include('-A HANGAR-EGRESS -j REJECT --reject-with icmp-port-unreachable');
    // The host takes only replies and the listed ports.
    expect(rules).to.include('-A HANGAR-INPUT -j HANGAR-HOSTPORTS');
    expect(rules).to.include('-A HANGAR-INPUT -p tcp -j REJECT --reject-with tcp-reset');
  });

  it('takes IPv4 addresses and CIDRs and refuses anything else in the allowlist', () => {
    expect(ipv4Cidr('10.0.0.1')).to.equal('10.0.0.1/32');
    expect(ipv4Cidr('10.0.0.0/08')).to.equal('10.0.0.0/8');
    expect(ipv4Cidr('10.0.0.0/33')).to.equal(null);
    expect(ipv4Cidr('example.com')).to.equal(null);
    expect(() => egressRuleset({ mode: 'public', allow: ['-j ACCEPT'], resolvers: [] })).to.throw(/not an IPv4 address or CIDR/);
  });

  it('scopes an allowlist entry with a port to that TCP port only', () => {
    expect(allowEntry('10.0.0.5:8080')).to.deep.equal({ cidr: '10.0.0.5/32', port: 8080 });
    expect(allowEntry('10.0.0.0/24:443')).to.deep.equal({ cidr: '10.0.0.0/24', port: 443 });
    expect(allowEntry('10.0.0.5')).to.deep.equal({ cidr: '10.0.0.5/32', port: null });
    for (const bad of ['10.0.0.5:0', '10.0.0.5:65536', '10.0.0.5:', 'example.com:80', '::1']) expect(allowEntry(bad), bad).to.equal(null);
    const rules = egressRuleset({ mode: 'public', allow: ['10.216.2.1:8080'], resolvers: [] }).split('\n');
    const allowed = rules.indexOf('-A HANGAR-EGRESS -d 10.216.2.1/32 -p tcp --dport 8080 -j RETURN');
    expect(allowed).to.be.greaterThan(0);
    // Every other port of that address falls through to the private-range refusal.
    expect(rules.findIndex((r) => r.includes('-d 10.0.0.0/8') && r.includes('REJECT'))).to.be.greaterThan(allowed);
    expect(rules.filter((r) => r.includes('10.216.2.1'))).to.have.length(1);
  });

  it("lets a workspace reach a host port Docker rewrites to a container (the API's published port), and nothing else so rewritten", () => {
    const rules = egressRuleset({ mode: 'allowlist', allow: [], resolvers: [] }, [8080]).split('\n');
    const published = rules.indexOf('-A HANGAR-EGRESS -p tcp -m conntrack --ctstate DNAT --ctorigdstport 8080 -j RETURN');
    expect(published).to.be.greaterThan(0);
    expect(rules.findIndex((r) => r.includes('-d 172.16.0.0/12') && r.includes('REJECT'))).to.be.greaterThan(published);
    expect(rules.filter((r) => r.includes('--ctstate DNAT'))).to.have.length(1);
    expect(egressRuleset({ mode: 'public', allow: [], resolvers: [] })).not.to.include('DNAT');
  });

  it('carves the pool into subnets that overlap no existing network', () => {
    const subnets = [...freeSubnets({ pool: '10.213.0.0/24', prefixLength: 26 }, ['10.213.0.64/26', '172.17.0.0/16', '10.213.0.128/25'])];
    expect(subnets).to.deep.equal([{ subnet: '10.213.0.0/26', gateway: '10.213.0.1' }]);
    expect([...freeSubnets({ pool: '10.213.0.0/24', prefixLength: 26 }, ['10.0.0.0/8'])]).to.deep.equal([]);
    expect(() => [...freeSubnets({ pool: '10.213.0.0/24', prefixLength: 16 }, [])]).to.throw(/must be between/);
  });

  it("reads the prefixes a routing table sends somewhere, in the host's byte order, without the default route", () => {
    const table = [
      'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
      'eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0',
      'hgr23b222bcf4dc\t8001D50A\t00000000\t0001\t0\t0\t0\tC0FFFFFF\t0\t0\t0',
      'docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0',
      'hgr23b222bcf4dc\t8001D50A\t00000000\t0001\t0\t0\t0\tC0FFFFFF\t0\t0\t0',
      '',
    ].join('\n');
    expect(routedPrefixes(table, 'LE')).to.deep.equal(['10.213.1.128/26', '172.17.0.0/16']);
    expect(routedPrefixes('Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\neth1\t0AD50300\t00000000\t0001\t0\t0\t0\tFFFFFFC0\n', 'BE')).to.deep.equal(['10.213.3.0/26']);
    expect(routedPrefixes('')).to.deep.equal([]);
  });

  it('names networks after organizations, with bridges the rules match', () => {
    const name = organizationNetworkName('0b7e6a1c-0000-4000-8000-000000000001');
    expect(name).to.equal('hangar-org-0b7e6a1c-0000-4000-8000-000000000001');
    expect(bridgeName(name)).to.match(/^hgr[0-9a-f]{12}$/);
    expect(() => organizationNetworkName('../x')).to.throw();
  });
});
