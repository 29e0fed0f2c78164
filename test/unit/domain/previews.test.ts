import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import {
  cookieStaysInPreview,
  crossOriginStateChange,
  hangarBearer,
  hostName,
  isForwardableAddress,
  isUnderDomain,
  parsePreviewHost,
  parsePreviewPath,
  previewUrl,
  scopePreviewResponseHeaders,
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

  it('builds the host form on the base URL scheme and port, and the path form only on the preview listener', () => {
    const host = (domain: string) => ({ form: 'host' as const, domain });
    expect(previewUrl({ baseUrl: 'http://localhost:8080', origins: host('localhost'), port: 3000, token })).to.equal(`http://3000-${token}.localhost:8080/`);
    expect(previewUrl({ baseUrl: 'https://hangar.example.com', origins: host('preview.example.com'), port: 3000, token })).to.equal(`https://3000-${token}.preview.example.com/`);
    expect(previewUrl({ baseUrl: 'http://localhost:8080', origins: host('preview.localhost'), port: 5173, token })).to.equal(`http://5173-${token}.preview.localhost:8080/`);
    // The path form never lands on the API's origin: the listener's port, or its own public URL.
    const path = (baseUrl?: string) => ({ form: 'path' as const, listenerPort: 8081, baseUrl });
    expect(previewUrl({ baseUrl: 'http://localhost:8080', origins: path(), port: 3000, token })).to.equal(`http://localhost:8081/preview/${token}/`);
    expect(previewUrl({ baseUrl: 'https://hangar.example.com/base/', origins: path(), port: 3000, token })).to.equal(`https://hangar.example.com:8081/preview/${token}/`);
    expect(previewUrl({ baseUrl: 'https://hangar.example.com', origins: path('https://previews.example.com/p/'), port: 3000, token })).to.equal(`https://previews.example.com/p/preview/${token}/`);
  });

  it('scopes the session cookie to one preview and keeps other cookies for the app', () => {
    expect(sessionCookie({ value: 'v', pathPrefix: `/preview/${token}`, maxAgeSeconds: 899.6, secure: false })).to.equal(`hangar_preview=v; Path=/preview/${token}/; Max-Age=899; HttpOnly; SameSite=Strict`);
    expect(sessionCookie({ value: 'v', pathPrefix: null, maxAgeSeconds: 60, secure: true })).to.equal('hangar_preview=v; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure');
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

  it('keeps only the cookies an app sets for its own preview', () => {
    const host = { host: `3000-${token}.localhost` };
    expect(cookieStaysInPreview('sid=1; Path=/; HttpOnly', host)).to.equal(true);
    expect(cookieStaysInPreview(`sid=1; Domain=3000-${token}.LOCALHOST`, host)).to.equal(true);
    for (const beyond of ['sid=1; Domain=localhost', 'sid=1; domain=.localhost; Path=/', 'sid=1; Domain=example.com', 'hangar_preview=forged; Path=/', 'sid=1; Domain=', `sid=1; Domain=x.3000-${token}.localhost`]) {
      expect(cookieStaysInPreview(beyond, host), beyond).to.equal(false);
    }
    const path = { pathPrefix: `/preview/${token}` };
    for (const within of ['sid=1', `sid=1; Path=/preview/${token}/`, `sid=1; Path=/preview/${token}`, `sid=1; Path=/preview/${token}/app; Secure`, 'sid=1; Path=relative']) {
      expect(cookieStaysInPreview(within, path), within).to.equal(true);
    }
    for (const beyond of ['sid=1; Path=/', 'sid=1; Path=/preview/', `sid=1; Path=/preview/${token}x`, `sid=1; Path=/preview/${token}/; Path=/`, `sid=1; Path=/preview/${token}/; Domain=localhost`, 'sid=1; Path=/console']) {
      expect(cookieStaysInPreview(beyond, path), beyond).to.equal(false);
    }
  });

  it('drops the answer headers that act beyond a preview', () => {
    const headers: Record<string, string | string[] | undefined> = {
      'content-type': 'text/html',
      'service-worker-allowed': '/',
      'clear-site-data': '"*"',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'set-cookie': ['a=1; Path=/', 'b=2; Domain=localhost'],
    };
    expect(scopePreviewResponseHeaders(headers, { host: `3000-${token}.localhost` })).to.deep.equal(['service-worker-allowed', 'clear-site-data', 'strict-transport-security', 'set-cookie (1)']);
    expect(headers).to.deep.equal({ 'content-type': 'text/html', 'set-cookie': ['a=1; Path=/'] });
    const onlyBeyond: Record<string, string | string[] | undefined> = { 'set-cookie': ['a=1; Path=/'] };
    scopePreviewResponseHeaders(onlyBeyond, { pathPrefix: `/preview/${token}` });
    expect(onlyBeyond).to.deep.equal({});
  });

  it("tells a state-changing request from another origin from the preview's own", () => {
    const host = `3000-${token}.localhost:8080`;
    const check = (method: string, origin: string | undefined, websocket = false) => crossOriginStateChange({ method, websocket, origin, host });
    expect(check('POST', `http://${host}`)).to.equal(false);
    expect(check('POST', `http://3001-${token}.localhost:8080`)).to.equal(true);
    expect(check('DELETE', 'http://localhost:8080')).to.equal(true);
    expect(check('PUT', 'null')).to.equal(true);
    expect(check('GET', `http://evil.example`, true)).to.equal(true);
    expect(check('GET', `http://${host}`, true)).to.equal(false);
    // Reading is not changing state; no Origin is not a browser page.
    expect(check('GET', 'http://evil.example')).to.equal(false);
    expect(check('POST', undefined)).to.equal(false);
    // A default port written in Host or not is the same origin.
    expect(crossOriginStateChange({ method: 'POST', websocket: false, origin: 'https://p.example.com', host: 'p.example.com:443' })).to.equal(false);
    expect(crossOriginStateChange({ method: 'POST', websocket: false, origin: 'https://p.example.com', host: 'evil@p.example.com' })).to.equal(true);
  });

  it('reads where previews answer: a domain (localhost by default), or the path form on a listener of its own', () => {
    expect(loadConfig({})).to.include({ previewDomain: 'localhost', previewListener: null, previewUrls: 'host' });
    expect(loadConfig({ HANGAR_PREVIEW_DOMAIN: 'Preview.Example.com.' }).previewDomain).to.equal('preview.example.com');
    expect(loadConfig({ HANGAR_PREVIEW_DOMAIN: 'localhost' }).previewDomain).to.equal('localhost');
    for (const bad of ['*.preview.example.com', 'https://preview.example.com', 'preview.example.com:8443', 'intranet', '-x.example.com']) {
      expect(() => loadConfig({ HANGAR_PREVIEW_DOMAIN: bad }), bad).to.throw(/HANGAR_PREVIEW_DOMAIN/);
    }
    const listener = loadConfig({ HANGAR_PREVIEW_PORT: '8081', HOST: '127.0.0.1' });
    expect(listener).to.deep.include({ previewListener: { port: 8081, host: '127.0.0.1', url: undefined }, previewUrls: 'path' });
    expect(loadConfig({ HANGAR_PREVIEW_PORT: '8081', HANGAR_PREVIEW_DOMAIN: 'p.example.com' }).previewUrls).to.equal('host');
    expect(() => loadConfig({ HANGAR_PREVIEW_PORT: '8080' })).to.throw(/must differ from PORT/);
    expect(() => loadConfig({ HANGAR_PREVIEW_PORT: '8081', HANGAR_PREVIEW_URL: 'https://hangar.example.com/previews', HANGAR_PUBLIC_URL: 'https://hangar.example.com' })).to.throw(/origin of its own/);
    expect(() => loadConfig({ HANGAR_PREVIEW_URL: 'https://previews.example.com' })).to.throw(/need HANGAR_PREVIEW_PORT/);
    expect(() => loadConfig({ HANGAR_PREVIEW_DOMAIN: 'example.com', HANGAR_PUBLIC_URL: 'https://hangar.example.com' })).to.throw(/must not lie under HANGAR_PREVIEW_DOMAIN/);
  });
});
