import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig, sections, variables } from '../../../src/config';
import { withFile } from '../../../src/config/fileVariables';
import { choice, decimal, flag, integer, list, text, url, type Variable } from '../../../src/config/schema';

/** The message a variable's parse throws for `raw`, or the value when it takes it. */
function parse<T>(variable: Variable<T>, raw: string | undefined): T {
  return variable.parse(raw, 'HANGAR_X');
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('config: the declared variables', () => {
  describe('integer', () => {
    const port = integer({ default: 8080, min: 0, max: 65535, description: 'd' });

    it('takes its default when unset or set empty, else the whole number given', () => {
      expect(parse(port, undefined)).to.equal(8080);
      expect(parse(port, '')).to.equal(8080);
      expect(parse(port, '0')).to.equal(0);
      expect(parse(port, '65535')).to.equal(65535);
      expect(parse(integer({ min: 1, max: 9, description: 'd' }), undefined)).to.equal(undefined);
    });

    it('refuses anything but digits, naming the variable and the value', () => {
      for (const bad of ['x', '1.5', '1e3', ' 80', '0x10', '80 ', '+1']) {
        expect(refusal(() => parse(port, bad)), bad).to.equal(`HANGAR_X must be an integer, got "${bad}"`);
      }
    });

    it('refuses a value out of its bounds, saying them', () => {
      expect(refusal(() => parse(port, '65536'))).to.equal('HANGAR_X must be between 0 and 65535, got 65536');
      expect(refusal(() => parse(port, '-1'))).to.equal('HANGAR_X must be between 0 and 65535, got -1');
    });
  });

  it('decimal: takes decimals within bounds and refuses signs, exponents and values out of bounds', () => {
    const rate = decimal({ default: 50, min: 0.001, max: 1000, description: 'd' });
    expect(parse(rate, undefined)).to.equal(50);
    expect(parse(rate, '0.5')).to.equal(0.5);
    expect(parse(rate, '20')).to.equal(20);
    for (const bad of ['-1', '.5', '1e2', 'x']) expect(refusal(() => parse(rate, bad)), bad).to.equal(`HANGAR_X must be a number, got "${bad}"`);
    expect(refusal(() => parse(rate, '0'))).to.equal('HANGAR_X must be between 0.001 and 1000, got 0');
    expect(refusal(() => parse(rate, '1000.5'))).to.equal('HANGAR_X must be between 0.001 and 1000, got 1000.5');
  });

  it('choice: takes one of its values as written, its default when unset, and names the values otherwise', () => {
    const mode = choice({ values: ['public', 'allowlist'], default: 'public', description: 'd' });
    expect(parse(mode, undefined)).to.equal('public');
    expect(parse(mode, '')).to.equal('public');
    expect(parse(mode, 'allowlist')).to.equal('allowlist');
    expect(refusal(() => parse(mode, 'Allowlist'))).to.equal('HANGAR_X must be one of public, allowlist, got "Allowlist"');
    expect(refusal(() => parse(mode, ' public'))).to.equal('HANGAR_X must be one of public, allowlist, got " public"');
    // Normalized (the OTEL_* variables): trimmed and lower-cased first; blank but set is a bad value.
    const exporter = choice({ values: ['otlp', 'none'], default: 'otlp', normalize: true, expected: 'otlp or none', description: 'd' });
    expect(parse(exporter, ' NONE ')).to.equal('none');
    expect(refusal(() => parse(exporter, ' '))).to.equal('HANGAR_X must be otlp or none, got ""');
    // Where the empty string was always refused (LOG_LEVEL), it still is.
    const level = choice({ values: ['info', 'debug'], default: 'info', emptyIsValue: true, description: 'd' });
    expect(parse(level, undefined)).to.equal('info');
    expect(refusal(() => parse(level, ''))).to.equal('HANGAR_X must be one of info, debug, got ""');
  });

  it('flag: takes its own spellings only, unless lenient', () => {
    const shared = flag({ default: false, yes: ['true'], no: ['false'], normalize: true, description: 'd' });
    expect(parse(shared, undefined)).to.equal(false);
    expect(parse(shared, ' TRUE ')).to.equal(true);
    expect(parse(shared, 'false')).to.equal(false);
    expect(refusal(() => parse(shared, '1'))).to.equal('HANGAR_X must be true or false, got "1"');
    const pathStyle = flag({ default: false, yes: ['true', '1'], no: ['false', '0'], description: 'd' });
    expect(parse(pathStyle, '1')).to.equal(true);
    expect(refusal(() => parse(pathStyle, 'TRUE'))).to.equal('HANGAR_X must be true or false, got "TRUE"');
    const disabled = flag({ default: false, yes: ['true'], no: ['false'], normalize: true, lenient: true, description: 'd' });
    expect(parse(disabled, 'True')).to.equal(true);
    expect(parse(disabled, 'nonsense')).to.equal(false);
  });

  it('text: a default for unset or empty, a form when it has one, and never a secret quoted back', () => {
    const schema = text({ pattern: /^[a-z_]+$/, expected: 'a lower-case SQL identifier', description: 'd' });
    expect(parse(schema, '')).to.equal(undefined);
    expect(parse(schema, 'hangar_a')).to.equal('hangar_a');
    expect(refusal(() => parse(schema, 'Bad'))).to.equal('HANGAR_X must be a lower-case SQL identifier, got "Bad"');
    const token = text({ secret: true, pattern: /^.{16,}$/, expected: '16 characters or more', description: 'd' });
    expect(refusal(() => parse(token, 'sk-short'))).to.equal('HANGAR_X must be 16 characters or more');
    expect(parse(text({ default: 'local', trim: true, description: 'd' }), '  ')).to.equal('local');
    const prefix = text({ default: 'hangar:', emptyIsValue: true, pattern: /^.+$/, expected: 'not empty', description: 'd' });
    expect(parse(prefix, undefined)).to.equal('hangar:');
    expect(refusal(() => parse(prefix, ''))).to.equal('HANGAR_X must be not empty, got ""');
  });

  it('url: http(s) only, trailing slashes dropped unless kept, never quoted back (it may hold a password)', () => {
    const api = url({ default: 'https://api.github.com', description: 'd' });
    expect(parse(api, undefined)).to.equal('https://api.github.com');
    expect(parse(api, 'https://ghe.example.com/api/v3//')).to.equal('https://ghe.example.com/api/v3');
    expect(parse(url({ asGiven: true, description: 'd' }), 'http://a.example/')).to.equal('http://a.example/');
    for (const bad of ['ftp://u:secret@x', 'not a url', 'api.github.com']) expect(refusal(() => parse(api, bad)), bad).to.equal('HANGAR_X must be an http(s) URL');
    const base = url({ default: 'https://api.openai.com', base: true, description: 'd' });
    expect(refusal(() => parse(base, 'https://proxy.example/v1?key=1'))).to.equal('HANGAR_X must be a base URL without a query or fragment');
  });

  it('withFile: declares the variable and its _FILE twin, which parses the trimmed contents of the file it names alike', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hangar-config-'));
    try {
      const pair = withFile('HANGAR_X', integer({ min: 1, max: 9, description: 'd' }));
      expect(Object.keys(pair)).to.deep.equal(['HANGAR_X', 'HANGAR_X_FILE']);
      expect(pair.HANGAR_X_FILE.type).to.equal('path');
      const file = (contents: string) => {
        const path = join(dir, 'x');
        writeFileSync(path, contents);
        return path;
      };
      expect(pair.HANGAR_X_FILE.parse(undefined, 'HANGAR_X_FILE')).to.equal(undefined);
      expect(pair.HANGAR_X_FILE.parse(file(' 7\n'), 'HANGAR_X_FILE')).to.equal(7);
      expect(refusal(() => pair.HANGAR_X_FILE.parse(file('12'), 'HANGAR_X_FILE'))).to.equal('HANGAR_X_FILE must be between 1 and 9, got 12');
      expect(refusal(() => pair.HANGAR_X_FILE.parse(join(dir, 'none'), 'HANGAR_X_FILE'))).to.equal(`HANGAR_X_FILE: cannot read ${join(dir, 'none')} (ENOENT)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('list: comma-separated, trimmed, empty entries dropped', () => {
    const allow = list({ description: 'd' });
    expect(parse(allow, undefined)).to.deep.equal([]);
    expect(parse(allow, ' 10.0.0.0/8, ,mirror.internal:443 ')).to.deep.equal(['10.0.0.0/8', 'mirror.internal:443']);
  });
});

describe('config: loadConfig through the declarations', () => {
  /** Settings that make every conditional variable read: a bucket, a relay, a preview listener, an OTLP endpoint. */
  const everything = {
    HANGAR_S3_BUCKET: 'media',
    HANGAR_WORKER_RELAY_PORT: '9470',
    HANGAR_WORKER_RELAY_URL: 'http://worker-1:9470',
    HANGAR_PREVIEW_PORT: '8081',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
  };

  it('declares each variable once, in one concept, with a one-line description', () => {
    const declared = sections.flatMap((part) => Object.keys(part.variables));
    expect(declared.length).to.equal(new Set(declared).size);
    expect(Object.keys(variables)).to.have.members(declared);
    expect(declared.length).to.be.greaterThan(100);
    for (const [name, variable] of Object.entries(variables)) {
      expect(name, name).to.match(/^[A-Z][A-Z0-9_]*$/);
      expect(variable.description, name).to.be.a('string').and.not.equal('');
      expect(variable.description, name).not.to.include('\n');
    }
    // A concept reads another's variable through that declaration, never a copy of its own.
    for (const part of sections) {
      for (const [name, variable] of Object.entries(part.borrowed)) expect(variables[name], `${part.title}: ${name}`).to.equal(variable);
    }
  });

  it('reads every declared variable, and only those', () => {
    const read = new Set<string>();
    const watched = (env: Record<string, string>) =>
      new Proxy(env, {
        get: (target, key) => {
          if (typeof key === 'string') read.add(key);
          return target[key as string];
        },
      });
    loadConfig(watched({}));
    loadConfig(watched(everything));
    expect([...read].sort()).to.deep.equal(Object.keys(variables).sort());
  });

  it('builds the documented defaults from an empty environment', () => {
    const config = loadConfig({});
    const { workerHostId, sandboxOwner, encryptionKeys, ...rest } = config;
    expect(sandboxOwner).to.equal(hostname());
    expect(hostname().startsWith(workerHostId)).to.equal(true);
    expect(encryptionKeys).to.deep.equal([]);
    expect(rest).to.deep.equal({
      port: 8080,
      host: '0.0.0.0',
      publicBaseUrl: undefined,
      bodyLimitBytes: 1024 * 1024,
      messageBodyLimitBytes: 32 * 1024 * 1024,
      codeHostingBodyLimitBytes: 25 * 1024 * 1024,
      maxUnverifiedBodies: 64,
      legacyCreateTimeoutMs: 600_000,
      databaseUrl: undefined,
      databaseSchema: undefined,
      temporalAddress: undefined,
      temporalNamespace: 'default',
      temporalTls: undefined,
      temporalApiKey: undefined,
      temporalSearchAttributes: true,
      taskQueue: 'hangar',
      workspaceApiUrl: 'http://host.docker.internal:8080',
      warmPoolSize: 5,
      agentExecutable: undefined,
      agentIdleTimeoutMs: 900_000,
      workspaceMemoryCapBytes: undefined,
      workspaceIdleMs: 3_600_000,
      workspaceArchiveAfterMs: 7 * 86_400_000,
      workspaceHistoryLimit: 10_000,
      workspaceReconcileMs: 30_000,
      workspaceVolumes: { driver: 'local', options: {}, shared: false },
      workerShutdownGraceMs: 30_000,
      hostMaxWorkspaces: null,
      hostTimeoutMs: 300_000,
      engineLostMs: 120_000,
      previewDomain: 'localhost',
      previewListener: null,
      previewUrls: 'host',
      previewRelay: null,
      previewDial: 'auto',
      sandboxImage: 'hangar-sandbox:latest',
      sandboxPoolSize: 2,
      sandboxMemoryBytes: 1024 * 1024 * 1024,
      sandboxNanoCpus: 1_000_000_000,
      sandboxPidsLimit: 256,
      sandboxNetworkMode: 'bridge',
      hookTimeoutMs: 90_000,
      networkIsolation: 'enforce',
      workspaceEgress: { mode: 'public', allow: [], hostPorts: [8080] },
      workspaceSubnets: { pool: '10.213.0.0/16', prefixLength: 26 },
      outboundAllow: [],
      agentBaseUrls: {
        agent_1: 'https://api.anthropic.com',
        agent_2: 'https://api.openai.com',
        agent_3: 'https://api.cursor.com',
        agent_4: 'https://openrouter.ai/api',
        agent_5: 'https://openrouter.ai/api',
      },
      sourceABaseUrl: undefined,
      sourceBBaseUrl: undefined,
      modelCatalogTtlMs: 300_000,
      modelProviderTimeoutMs: 5000,
      automationSweepMs: 30_000,
      github: { webhookSecret: undefined, apiUrl: 'https://api.github.com', appId: undefined, privateKeyPem: undefined, token: undefined },
      gitlab: { webhookToken: undefined, apiUrl: 'https://gitlab.com/api/v4', token: undefined },
      linear: { apiUrl: 'https://api.linear.app/graphql' },
      botName: 'hangar',
      slack: { apiUrl: 'https://slack.com/api' },
      dataDir: '.hangar',
      releasesDir: '.hangar/releases',
      s3: undefined,
      media: { maxBytes: 100 * 1024 * 1024, linkDefaultSeconds: 900, linkMaxSeconds: 7 * 86_400 },
      redisUrl: undefined,
      redisPrefix: 'hangar:',
      presenceTtlMs: 30_000,
      streams: { perKey: 100, perOrganization: 500, perProcess: 2000, bufferBytes: 256 * 1024 },
      rateLimit: { key: { burst: 1000, perSecond: 100 }, ip: { burst: 1000, perSecond: 50 }, failedAuthCost: 10, proxyHops: 0 },
      apiKeyCache: { ttlMs: 60_000, maxEntries: 10_000 },
      logLevel: 'info',
      metrics: { token: undefined, workerPort: 9464, workerHost: '0.0.0.0', temporalAddress: undefined },
      tracing: null,
    });
  });

  it('derives values from others: units, the data dir, the public URL, the listener address, the process default image', () => {
    const config = loadConfig(
      { HANGAR_DATA_DIR: '/var/lib/hangar', HANGAR_PUBLIC_URL: 'https://hangar.example.com/', HOST: '127.0.0.1', HANGAR_PREVIEW_PORT: '8081', HANGAR_SANDBOX_MEMORY_MB: '512', HANGAR_WORKSPACE_MEMORY_CAP_MB: '256' },
      { sandboxImage: 'hangar-sandbox:dev' },
    );
    expect(config.releasesDir).to.equal('/var/lib/hangar/releases');
    expect(config.publicBaseUrl).to.equal('https://hangar.example.com/');
    expect(config.workspaceApiUrl).to.equal('https://hangar.example.com');
    // Workspaces reach the API elsewhere than on their Docker host: no host port is opened.
    expect(config.workspaceEgress.hostPorts).to.deep.equal([]);
    expect(config.previewListener).to.deep.equal({ port: 8081, host: '127.0.0.1', url: undefined });
    expect(config.previewUrls).to.equal('path');
    expect(config.sandboxMemoryBytes).to.equal(512 * 1024 * 1024);
    expect(config.workspaceMemoryCapBytes).to.equal(256 * 1024 * 1024);
    expect(config.sandboxImage).to.equal('hangar-sandbox:dev');
    expect(loadConfig({ HANGAR_SANDBOX_IMAGE: 'mine:1' }, { sandboxImage: 'hangar-sandbox:dev' }).sandboxImage).to.equal('mine:1');
    expect(loadConfig({ HANGAR_WORKSPACE_API_URL: 'https://host.docker.internal/' }).workspaceEgress.hostPorts).to.deep.equal([443]);
    expect(loadConfig({ HANGAR_WORKSPACE_HOST_PORTS: '8080, 9000' }).workspaceEgress.hostPorts).to.deep.equal([8080, 9000]);
    expect(loadConfig({ PORT: '0' }).workspaceEgress.hostPorts).to.deep.equal([]);
  });

  it('refuses a bad integer, decimal or choice of every declared variable, naming it', () => {
    let checked = 0;
    for (const [name, variable] of Object.entries(variables)) {
      const env = { ...everything };
      if (variable.type === 'integer' || variable.type === 'number') {
        expect(refusal(() => loadConfig({ ...env, [name]: 'x' })), name).to.include(`${name} must be ${variable.type === 'integer' ? 'an integer' : 'a number'}, got "x"`);
        const below = variable.type === 'integer' ? variable.min! - 1 : variable.min! / 2;
        expect(refusal(() => loadConfig({ ...env, [name]: String(below) })), name).to.include(`${name} must be between ${variable.min} and ${variable.max}`);
        if (variable.max! < Number.MAX_SAFE_INTEGER) {
          expect(refusal(() => loadConfig({ ...env, [name]: String(variable.max! + 1) })), name).to.include(`${name} must be between ${variable.min} and ${variable.max}`);
        }
        checked++;
      } else if (variable.type === 'choice') {
        expect(refusal(() => loadConfig({ ...env, [name]: 'nonsense' })), name).to.match(new RegExp(`^${name} must be .*, got "nonsense"$`, 'm'));
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(45);
  });

  it('names the first bad variable of every concept at once, a line each', () => {
    const message = refusal(() => loadConfig({ PORT: 'http', HANGAR_HOST_TIMEOUT_SECONDS: '2', LOG_LEVEL: 'loud' }));
    expect(message.split('\n')).to.deep.equal([
      'PORT must be an integer, got "http"',
      'HANGAR_HOST_TIMEOUT_SECONDS must be between 3 and 86400, got 2',
      'LOG_LEVEL must be one of debug, info, warn, error, got "loud"',
    ]);
  });

  it('checks a setting that only matters with another only then, as before', () => {
    expect(loadConfig({ HANGAR_S3_FORCE_PATH_STYLE: 'maybe', HANGAR_S3_ENDPOINT: 'not a url' }).s3).to.equal(undefined);
    expect(refusal(() => loadConfig({ HANGAR_S3_BUCKET: 'media', HANGAR_S3_FORCE_PATH_STYLE: 'maybe' }))).to.equal('HANGAR_S3_FORCE_PATH_STYLE must be true or false, got "maybe"');
    expect(loadConfig({ HANGAR_RATE_LIMIT: 'off', HANGAR_RATE_LIMIT_KEY_BURST: 'lots' }).rateLimit).to.equal(null);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_RESOURCE_ATTRIBUTES: 'nonsense' }).tracing).to.equal(null);
  });
});
