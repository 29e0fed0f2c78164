import { expect } from 'chai';
import { createLogger, silentLogger, type LogLevel } from '../../src/logger';

/** A logger whose lines are parsed as they are written. */
function capture(level: LogLevel = 'debug', base?: Record<string, unknown>) {
  const raw: string[] = [];
  const logger = createLogger({ level, base, write: (line) => raw.push(line) });
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, raw, lines };
}

describe('logger', () => {
  it('writes one JSON object per line with an ISO time, a level name and the message', () => {
    const { logger, raw, lines } = capture('debug', { process: 'api' });
    logger.info('api listening', { port: 8080 });
    expect(raw).to.have.length(1);
    expect(raw[0]).not.to.include('\n');
    const [line] = lines();
    expect(line).to.include({ level: 'info', msg: 'api listening', port: 8080, process: 'api' });
    expect(new Date(line.time as string).toISOString()).to.equal(line.time);
    // No pid or hostname: the base is exactly what the process names.
    expect(line).not.to.have.property('pid');
  });

  it('writes only records at or above its level', () => {
    const { logger, lines } = capture('warn');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines().map((l) => [l.level, l.msg])).to.deep.equal([['warn', 'w'], ['error', 'e']]);
  });

  it('adds a child\'s fields to every line, over its parent\'s, without changing the parent', () => {
    const { logger, lines } = capture();
    const child = logger.child({ component: 'sandbox', replicaId: 'r1' });
    const grandchild = child.child({ component: 'pool' });
    grandchild.info('started', { count: 2 });
    logger.info('plain');
    const [first, second] = lines();
    expect(first).to.include({ component: 'pool', replicaId: 'r1', count: 2, msg: 'started' });
    expect(second).not.to.have.property('component');
  });

  it('redacts string fields whose names look secret, at any depth, keeping the rest', () => {
    const { logger, raw, lines } = capture();
    logger.info('configured', {
      apiKey: 'hk_live_1', api_key: 'hk_live_2', 'x-api-key': 'hk_live_3', password: 'pw-1', clientSecret: 'cs-1', accessToken: 'tok-1',
      authorization: 'Bearer abc', cookie: 'sid=1', credential: 'cred-1', value: 'secret-value', content: 'file body',
      tokenCount: 12, hasToken: true, name: 'visible',
      nested: { provider: { privateKey: 'pk-1', host: 'example.test' }, list: [{ webhookSecret: 'ws-1' }] },
    });
    const [line] = lines();
    for (const secret of ['hk_live_1', 'hk_live_2', 'hk_live_3', 'pw-1', 'cs-1', 'tok-1', 'Bearer abc', 'sid=1', 'cred-1', 'secret-value', 'file body', 'pk-1', 'ws-1']) {
      expect(raw[0]).not.to.include(secret);
    }
    expect(line).to.include({ apiKey: '[redacted]', authorization: '[redacted]', tokenCount: 12, hasToken: true, name: 'visible' });
    expect(line.nested).to.deep.equal({ provider: { privateKey: '[redacted]', host: 'example.test' }, list: [{ webhookSecret: '[redacted]' }] });
  });

  it('censors credential headers whatever their type and case, in a headers object at any depth', () => {
    const { logger, raw, lines } = capture();
    logger.warn('upstream refused', {
      headers: { authorization: ['Bearer one'], 'set-cookie': ['a=1', 'b=2'], accept: 'application/json' },
      response: { headers: { 'x-gitlab-token': ['glt-1'], 'content-type': 'text/plain' } },
      upstream: { attempt: { headers: { Cookie: ['sid=2'], 'Proxy-Authorization': 42 } } },
    });
    const [line] = lines();
    expect((line.upstream as { attempt: { headers: unknown } }).attempt.headers).to.deep.equal({ Cookie: '[redacted]', 'Proxy-Authorization': '[redacted]' });
    expect(line.headers).to.deep.equal({ authorization: '[redacted]', 'set-cookie': '[redacted]', accept: 'application/json' });
    expect((line.response as { headers: unknown }).headers).to.deep.equal({ 'x-gitlab-token': '[redacted]', 'content-type': 'text/plain' });
    expect(raw[0]).not.to.include('Bearer one').and.not.to.include('glt-1');
  });

  it('redacts secret-looking child fields and base fields too', () => {
    const { logger, raw } = capture('debug', { process: 'api', adminToken: 'adm-1' });
    logger.child({ engineSecret: 'eng-1', replicaId: 'r1' }).info('opened');
    expect(raw[0]).not.to.include('adm-1').and.not.to.include('eng-1');
    expect(raw[0]).to.include('"replicaId":"r1"');
  });

  it('writes errors as name, message, stack, code and cause, without their other properties', () => {
    const { logger, raw, lines } = capture();
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const err = Object.assign(new Error('request failed', { cause }), {
      code: 'E_UPSTREAM',
      config: { headers: { authorization: 'Bearer leaked-through-config' } },
      apiKey: 'hk_live_on_the_error',
    });
    logger.error('request failed', { err, requestId: 'req-1' });
    const logged = lines()[0].err as Record<string, unknown>;
    expect(logged).to.include({ name: 'Error', message: 'request failed', code: 'E_UPSTREAM' });
    expect(logged.stack).to.be.a('string').and.include('request failed');
    expect(logged.cause).to.include({ name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' });
    expect(logged).to.have.all.keys('name', 'message', 'stack', 'code', 'cause');
    expect(raw[0]).not.to.include('leaked-through-config').and.not.to.include('hk_live_on_the_error');
  });

  it('scrubs bearer tokens and URL passwords quoted in an error message and its stack', () => {
    const { logger, raw, lines } = capture();
    logger.error('query failed', { err: new Error('GET with Authorization: Bearer sk-abcdefgh12345678 to postgres://hangar:hunter2pw@db:5432/hangar failed') });
    expect(raw[0]).not.to.include('sk-abcdefgh12345678').and.not.to.include('hunter2pw');
    expect((lines()[0].err as { message: string }).message).to.equal('GET with Authorization: Bearer [redacted] to postgres://hangar:[redacted]@db:5432/hangar failed');
  });

  it('survives circular fields', () => {
    const { logger, lines } = capture();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    logger.info('circular', { loop });
    expect(lines()[0].loop).to.deep.equal({ name: 'loop', self: '[circular]' });
  });

  it('has a silent logger that writes nothing and still makes children', () => {
    const writes: unknown[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: unknown) => (writes.push(chunk), true)) as typeof process.stdout.write;
    try {
      silentLogger.child({ component: 'x' }).error('nothing', { apiKey: 'k' });
    } finally {
      process.stdout.write = original;
    }
    expect(writes).to.deep.equal([]);
  });
});
