/** Where the MCP server's tools send their API calls: the HTTP route's loopback address, and `hangar mcp`'s settings. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loopbackBaseUrl } from '../../../src/mcp/http';
import { stdioSettings } from '../../../src/mcp/stdio';

describe('MCP server settings', () => {
  describe('loopbackBaseUrl', () => {
    it('calls back the address and port the request arrived on, IPv6 in brackets', () => {
      expect(loopbackBaseUrl({ localAddress: '127.0.0.1', localPort: 8080 })).to.equal('http://127.0.0.1:8080');
      expect(loopbackBaseUrl({ localAddress: '10.1.2.3', localPort: 80 })).to.equal('http://10.1.2.3:80');
      expect(loopbackBaseUrl({ localAddress: '::1', localPort: 8080 })).to.equal('http://[::1]:8080');
      expect(loopbackBaseUrl({ localAddress: '::ffff:127.0.0.1', localPort: 8080 })).to.equal('http://[::ffff:127.0.0.1]:8080');
      // Every one of them is a URL fetch accepts.
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '2001:db8::5']) {
        expect(() => new URL(loopbackBaseUrl({ localAddress: address, localPort: 1 }))).not.to.throw();
      }
    });

    it('reaches a zoned link-local address through the IPv6 loopback, since a URL cannot name the zone', () => {
      expect(loopbackBaseUrl({ localAddress: 'fe80::1%eth0', localPort: 8080 })).to.equal('http://[::1]:8080');
    });

    it('refuses a socket without a local address (it has closed)', () => {
      expect(() => loopbackBaseUrl({})).to.throw(/no local address/);
    });
  });

  describe('stdioSettings', () => {
    const dataDir = () => mkdtempSync(join(tmpdir(), 'hangar-mcp-'));

    it('takes HANGAR_URL and HANGAR_API_KEY first', () => {
      const dir = dataDir();
      writeFileSync(join(dir, 'dev-credentials.json'), JSON.stringify({ base_url: 'http://localhost:9999', personal_api_key: 'dev-key' }));
      expect(stdioSettings({ HANGAR_DATA_DIR: dir, HANGAR_URL: 'https://hangar.example.com', HANGAR_API_KEY: 'k' })).to.deep.equal({
        baseUrl: 'https://hangar.example.com',
        apiKey: 'k',
      });
    });

    it("falls back on npm start's address and personal key", () => {
      const dir = dataDir();
      writeFileSync(join(dir, 'dev-credentials.json'), JSON.stringify({ base_url: 'http://localhost:9999', org_api_key: 'org-key', personal_api_key: 'dev-key' }));
      expect(stdioSettings({ HANGAR_DATA_DIR: dir })).to.deep.equal({ baseUrl: 'http://localhost:9999', apiKey: 'dev-key' });
    });

    it('defaults the address to port 8080 on localhost and needs a key from somewhere', () => {
      expect(stdioSettings({ HANGAR_DATA_DIR: dataDir(), HANGAR_API_KEY: 'k' }).baseUrl).to.equal('http://localhost:8080');
      expect(() => stdioSettings({ HANGAR_DATA_DIR: dataDir() })).to.throw(/HANGAR_API_KEY is not set/);
      expect(() => stdioSettings({ HANGAR_DATA_DIR: dataDir(), HANGAR_API_KEY: 'k', HANGAR_URL: 'localhost:8080' })).to.throw(/http\(s\) URL/);
    });
  });
});
