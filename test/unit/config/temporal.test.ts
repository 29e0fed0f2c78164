import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig, variables } from '../../../src/config';
import { temporalConnectionOptions } from '../../../src/temporal/connectionOptions';
import { configRefusal } from './refusal';

const refusal = configRefusal;

/** PEM-shaped text (only its form is checked here; test/integration/temporal/tls.test.ts uses real ones). */
const CA = '-----BEGIN CERTIFICATE-----\nY2EtY2VydA==\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nY2xpZW50LWNlcnQ=\n-----END CERTIFICATE-----\n';
const KEY_MATERIAL = 'c2VjcmV0LWtleS1tYXRlcmlhbA';
const KEY = `-----BEGIN PRIVATE KEY-----\n${KEY_MATERIAL}\n-----END PRIVATE KEY-----\n`;
const API_KEY = 'tmprl-api-key-6f1c0b7e2528';
const ADDRESS = { TEMPORAL_ADDRESS: 'temporal.example:7233' };

describe('config: the connection to Temporal (TLS, mTLS, API key)', () => {
  let dir: string;
  const file = (name: string, contents: string) => {
    const path = join(dir, name);
    writeFileSync(path, contents);
    return path;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hangar-temporal-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is plaintext by default, and with TEMPORAL_TLS=off', () => {
    for (const env of [{}, ADDRESS, { ...ADDRESS, TEMPORAL_TLS: 'off' }, { TEMPORAL_TLS: 'false' }]) {
      const config = loadConfig(env);
      expect(config.temporalTls, JSON.stringify(env)).to.equal(undefined);
      expect(config.temporalApiKey).to.equal(undefined);
      expect(temporalConnectionOptions(config, '127.0.0.1:7233')).to.deep.equal({ address: '127.0.0.1:7233' });
    }
  });

  it('TEMPORAL_TLS=on: TLS with the system CAs', () => {
    expect(loadConfig({ ...ADDRESS, TEMPORAL_TLS: 'on' }).temporalTls).to.deep.equal({});
    expect(loadConfig({ ...ADDRESS, TEMPORAL_TLS: 'TRUE' }).temporalTls).to.deep.equal({});
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS: 'yes' })).to.equal('TEMPORAL_TLS must be on or off, got "yes"');
  });

  it('takes the CA, the client pair and the server name inline (with \\n escapes), and implies TLS', () => {
    const config = loadConfig({
      ...ADDRESS,
      TEMPORAL_TLS_CA: CA.replace(/\n/g, '\\n'),
      TEMPORAL_TLS_CERT: CERT,
      TEMPORAL_TLS_KEY: KEY,
      TEMPORAL_TLS_SERVER_NAME: ' temporal.internal ',
    });
    expect(config.temporalTls).to.deep.equal({
      serverRootCACertificate: Buffer.from(CA),
      clientCertPair: { crt: Buffer.from(CERT), key: Buffer.from(KEY) },
      serverNameOverride: 'temporal.internal',
    });
    expect(temporalConnectionOptions(config, ADDRESS.TEMPORAL_ADDRESS)).to.deep.equal({ address: ADDRESS.TEMPORAL_ADDRESS, tls: config.temporalTls });
    expect(loadConfig({ ...ADDRESS, TEMPORAL_TLS_CA: CA }).temporalTls).to.deep.equal({ serverRootCACertificate: Buffer.from(CA) });
    expect(loadConfig({ ...ADDRESS, TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' }).temporalTls).to.deep.equal({ serverNameOverride: 'temporal.internal' });
  });

  it('reads each from its _FILE variant, trimmed', () => {
    const config = loadConfig({
      ...ADDRESS,
      TEMPORAL_TLS_CA_FILE: file('ca.pem', CA),
      TEMPORAL_TLS_CERT_FILE: file('client.pem', CERT),
      TEMPORAL_TLS_KEY_FILE: file('client.key', KEY),
      TEMPORAL_API_KEY_FILE: file('api-key', `${API_KEY}\n`),
    });
    expect(config.temporalTls).to.deep.equal({
      serverRootCACertificate: Buffer.from(CA.trim()),
      clientCertPair: { crt: Buffer.from(CERT.trim()), key: Buffer.from(KEY.trim()) },
    });
    expect(config.temporalApiKey).to.equal(API_KEY);
  });

  it('an API key implies TLS with the system CAs, and goes to the connection', () => {
    const config = loadConfig({ ...ADDRESS, TEMPORAL_API_KEY: API_KEY });
    expect(config.temporalTls).to.deep.equal({});
    expect(temporalConnectionOptions(config, ADDRESS.TEMPORAL_ADDRESS)).to.deep.equal({ address: ADDRESS.TEMPORAL_ADDRESS, tls: {}, apiKey: API_KEY });
  });

  it('refuses a value together with its _FILE variant', () => {
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS_CA: CA, TEMPORAL_TLS_CA_FILE: file('ca.pem', CA) })).to.equal('set TEMPORAL_TLS_CA or TEMPORAL_TLS_CA_FILE, not both');
    expect(refusal({ ...ADDRESS, TEMPORAL_API_KEY: API_KEY, TEMPORAL_API_KEY_FILE: file('api-key', API_KEY) })).to.equal(
      'set TEMPORAL_API_KEY or TEMPORAL_API_KEY_FILE, not both',
    );
  });

  it('refuses a certificate without its key, and a key without its certificate', () => {
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS_CERT: CERT })).to.equal('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (each or its _FILE): TEMPORAL_TLS_KEY is missing');
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS_KEY_FILE: file('client.key', KEY) })).to.equal(
      'TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (each or its _FILE): TEMPORAL_TLS_CERT is missing',
    );
  });

  it('refuses a _FILE it cannot read or that is empty, naming the variable and the path', () => {
    const missing = join(dir, 'nowhere.key');
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS_CERT: CERT, TEMPORAL_TLS_KEY_FILE: missing })).to.equal(`TEMPORAL_TLS_KEY_FILE: cannot read ${missing} (ENOENT)`);
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS_CA_FILE: dir })).to.equal(`TEMPORAL_TLS_CA_FILE: cannot read ${dir} (EISDIR)`);
    const empty = file('api-key', '\n');
    expect(refusal({ ...ADDRESS, TEMPORAL_API_KEY_FILE: empty })).to.equal(`TEMPORAL_API_KEY_FILE: ${empty} is empty`);
  });

  it('refuses text that is not PEM, pointing a path to the _FILE variant', () => {
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS_CA: '/etc/temporal/ca.pem' })).to.equal(
      "TEMPORAL_TLS_CA must hold a PEM certificate (-----BEGIN …-----); a file's path goes in TEMPORAL_TLS_CA_FILE",
    );
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS_CERT_FILE: file('client.pem', KEY), TEMPORAL_TLS_KEY: KEY })).to.equal(
      'TEMPORAL_TLS_CERT_FILE must hold a PEM certificate (-----BEGIN …-----)',
    );
  });

  it('never puts a key or an API key in a message', () => {
    const messages = [
      refusal({ ...ADDRESS, TEMPORAL_TLS_KEY: KEY }),
      refusal({ ...ADDRESS, TEMPORAL_TLS_CERT: CERT, TEMPORAL_TLS_KEY: KEY_MATERIAL }),
      refusal({ ...ADDRESS, TEMPORAL_TLS_CERT: CERT, TEMPORAL_TLS_KEY_FILE: file('not-a.key', KEY_MATERIAL) }),
      refusal({ ...ADDRESS, TEMPORAL_TLS_CERT: CERT, TEMPORAL_TLS_KEY: KEY, TEMPORAL_TLS_KEY_FILE: file('client.key', KEY) }),
      refusal({ ...ADDRESS, TEMPORAL_TLS: 'off', TEMPORAL_API_KEY: API_KEY }),
      refusal({ TEMPORAL_API_KEY: API_KEY }),
      refusal({ TEMPORAL_API_KEY_FILE: file('api-key', API_KEY), TEMPORAL_TLS_KEY: KEY }),
    ];
    for (const message of messages) {
      expect(message).not.to.include(KEY_MATERIAL);
      expect(message).not.to.include(API_KEY);
    }
    expect(messages[1]).to.equal("TEMPORAL_TLS_KEY must hold a PEM private key (-----BEGIN …-----); a file's path goes in TEMPORAL_TLS_KEY_FILE");
    expect(variables.TEMPORAL_TLS_KEY!.type).to.equal('secret');
    expect(variables.TEMPORAL_API_KEY!.type).to.equal('secret');
  });

  it('refuses TLS settings with TEMPORAL_TLS=off, or without TEMPORAL_ADDRESS (the dev server is plaintext)', () => {
    expect(refusal({ ...ADDRESS, TEMPORAL_TLS: 'off', TEMPORAL_TLS_CA: CA })).to.equal('TEMPORAL_TLS is off, but TEMPORAL_TLS_CA needs TLS');
    expect(refusal({ TEMPORAL_API_KEY: API_KEY })).to.equal('TEMPORAL_API_KEY needs TEMPORAL_ADDRESS (the dev server `npm start` runs without it speaks plaintext)');
    expect(refusal({ TEMPORAL_TLS: 'on', TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' })).to.equal(
      'TEMPORAL_TLS, TEMPORAL_TLS_SERVER_NAME need TEMPORAL_ADDRESS (the dev server `npm start` runs without it speaks plaintext)',
    );
  });
});
