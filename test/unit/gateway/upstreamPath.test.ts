import { expect } from 'chai';
import { upstreamTarget } from '../../../src/gateway/upstreamPath';

describe('gateway/upstreamPath: the upstream path stays under the base path', () => {
  const bases = ['https://openrouter.ai/api', 'https://api.anthropic.com', 'http://127.0.0.1:9/agent_1/'];

  it('appends path and query as sent', () => {
    expect(upstreamTarget('https://openrouter.ai/api', '/v1/chat/completions?x=1').url?.href).to.equal('https://openrouter.ai/api/v1/chat/completions?x=1');
    expect(upstreamTarget('https://api.anthropic.com', '/v1/messages').url?.href).to.equal('https://api.anthropic.com/v1/messages');
    expect(upstreamTarget('https://openrouter.ai/api', '/v1/models/a%20b.c?q=../..%2f%5c').url?.pathname).to.equal('/api/v1/models/a%20b.c');
  });

  it('refuses every spelling of a dot segment, an encoded slash or backslash, at any depth of encoding', () => {
    const escapes = [
      '/v1\\..\\..\\admin',
      '/v1/../admin',
      '/v1/./admin',
      '/..',
      '/v1/%2e%2e/admin',
      '/v1/%2E%2E/admin',
      '/v1/.%2e/admin',
      '/v1/%2e/admin',
      '/v1%2f..%2fadmin',
      '/v1%2F..%2Fadmin',
      '/v1%5c..%5cadmin',
      '/v1/%252e%252e/admin',
      '/v1/%25252e%25252e/admin',
      '/v1/%252f..',
      '/v1/..;/admin',
      '/v1/.;x/admin',
      '/v1/%2e%2e%3b/admin',
      '/v1/%zz%2e%2e/..',
      '/v1/%2525252525252e',
      '/v1/%c0%ae%c0%ae/admin',
      '/v1/%zz',
    ];
    for (const base of bases) {
      for (const target of escapes) {
        const result = upstreamTarget(base, target);
        expect(result.url, `${base} ${target}`).to.equal(null);
        expect(result.refusal, `${base} ${target}`).to.be.a('string');
      }
    }
  });

  it('keeps dots and escapes that are not segments of their own', () => {
    for (const target of ['/v1/a..b', '/v1/.well-known', '/v1/x./y', '/v1/%E2%9C%93', '/v1/%2520x', '/v1//models']) {
      const url = upstreamTarget('https://openrouter.ai/api', target).url;
      expect(url, target).not.to.equal(null);
      expect(url!.pathname.startsWith('/api/'), target).to.equal(true);
    }
  });
});
