import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import {
  hangarBearer,
  hostName,
  isForwardableAddress,
  isUnderDomain,
  parsePreviewHost,
  parsePreviewPath,
  previewUrl,
  sessionCookie,
  splitCookies,
  withoutLinkParam,
} from '../../../src/domain/previews';

const token = '0123456789abcdef0123456789abcdef';

describe('previews: names, URLs and cookies', () => {
  it('reads the host form, port and token, and nothing else under the domain', () => {
    expect(parsePreviewHost(`3000-${token}.preview.example.com`, 'preview.example.com')).to.deep.equal({ port: 3000, token });
    expect(parsePreviewHost(`3000-${token}.Preview.Example.com.:8443`, 'preview.example.com')).to.deep.equal({ port: 3000, token });
    expect(parsePreviewHost(`65535-${token}.p.test`, 'p.test')).to.deep.equal({ port: 65535, token });
    for (const host of [`65536-${token}.p.test`, `0-${token}.p.test`, `03000-${token}.p.test`, `3000-${token.toUpperCase()}x.p.test`, `a.3000-${token}.p.test`, 'p.test', `3000-${token}.other.test`]) {
      expect(parsePreviewHost(host, 'p.test'), host).to.equal(null);
    }
    expect(parsePreviewHost(`3000-${token}.p.test`, undefined)).to.equal(null);
    expect(isUnderDomain('api.p.test', 'p.test')).to.equal(true);
    expect(isUnderDomain('p.test', 'p.test')).to.equal(false);
    expect(isUnderDomain('evilp.test', 'p.test')).to.equal(false);
    expect(hostName('[::1]:8080')).to.equal('[::1]');
  });

  it('reads the path form and what the app sees of it', () => {
    expect(parsePreviewPath(`/preview/${token}/a/b?x=1`)).to.deep.equal({ token, rest: '/a/b?x=1', bare: false });
    expect(parsePreviewPath(`/preview/${token}/`)).to.deep.equal({ token, rest: '/', bare: false });
    expect(parsePreviewPath(`/preview/${token}`)).to.deep.equal({ token, rest: '/', bare: true });
    expect(parsePreviewPath(`/preview/${token}?q=1`)).to.deep.equal({ token, rest: '/?q=1', bare: true });
    expect(parsePreviewPath('/preview/short/')).to.equal(null);
    expect(parsePreviewPath(`/previews/${token}/`)).to.equal(null);
  });

  it('builds the path form without a domain and the host form on the base URL scheme and port with one', () => {
    expect(previewUrl({ baseUrl: 'http://localhost:8080', domain: undefined, port: 3000, token })).to.equal(`http://localhost:8080/preview/${token}/`);
    expect(previewUrl({ baseUrl: 'https://hangar.example.com/base/', domain: undefined, port: 3000, token })).to.equal(`https://hangar.example.com/base/preview/${token}/`);
    expect(previewUrl({ baseUrl: 'https://hangar.example.com', domain: 'preview.example.com', port: 3000, token })).to.equal(`https://3000-${token}.preview.example.com/`);
    expect(previewUrl({ baseUrl: 'http://localhost:8080', domain: 'preview.localhost', port: 5173, token })).to.equal(`http://5173-${token}.preview.localhost:8080/`);
  });

  it('scopes the session cookie to one preview and keeps other cookies for the app', () => {
    expect(sessionCookie({ value: 'v', pathPrefix: `/preview/${token}`, maxAgeSeconds: 899.6, secure: false })).to.equal(`hangar_preview=v; Path=/preview/${token}/; Max-Age=899; HttpOnly; SameSite=Lax`);
    expect(sessionCookie({ value: 'v', pathPrefix: null, maxAgeSeconds: 60, secure: true })).to.equal('hangar_preview=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure');
    expect(splitCookies('a=1; hangar_preview=s1;b=2; hangar_preview=s2')).to.deep.equal({ sessions: ['s1', 's2'], others: 'a=1; b=2' });
    expect(splitCookies('hangar_preview=s1')).to.deep.equal({ sessions: ['s1'], others: null });
    expect(splitCookies(undefined)).to.deep.equal({ sessions: [], others: null });
    expect(withoutLinkParam('?a=1&hangar_preview_link=t&b=2')).to.equal('?a=1&b=2');
    expect(withoutLinkParam('?hangar_preview_link=t')).to.equal('');
  });

  it("tells Hangar's keys from the app's own Authorization", () => {
    expect(hangarBearer('Bearer hgr_org_abc')).to.equal('hgr_org_abc');
    expect(hangarBearer('bearer hgr_usr_abc')).to.equal('hgr_usr_abc');
    expect(hangarBearer('Bearer app-token')).to.equal(null);
    expect(hangarBearer('Basic aGdyX29yZ186eA==')).to.equal(null);
    expect(hangarBearer(undefined)).to.equal(null);
  });

  it('forwards only to a container network address, never loopback, unspecified or link-local', () => {
    for (const ok of ['172.17.0.5', '10.1.2.3', '192.168.5.9', 'fd00::5']) expect(isForwardableAddress(ok), ok).to.equal(true);
    for (const bad of ['127.0.0.1', '0.0.0.0', '169.254.169.254', '::1', '::', 'fe80::1', '::ffff:127.0.0.1', 'localhost', '256.1.1.1', '', null, '224.0.0.1']) {
      expect(isForwardableAddress(bad), String(bad)).to.equal(false);
    }
  });

  it('reads HANGAR_PREVIEW_DOMAIN as a plain domain name', () => {
    expect(loadConfig({}).previewDomain).to.equal(undefined);
    expect(loadConfig({ HANGAR_PREVIEW_DOMAIN: 'Preview.Example.com.' }).previewDomain).to.equal('preview.example.com');
    for (const bad of ['*.preview.example.com', 'https://preview.example.com', 'preview.example.com:8443', 'localhost', '-x.example.com']) {
      expect(() => loadConfig({ HANGAR_PREVIEW_DOMAIN: bad }), bad).to.throw(/HANGAR_PREVIEW_DOMAIN/);
    }
  });
});
