/** The Temporal cluster Hangar's workflows run on, and how Hangar proves itself to it (TLS, mTLS, an API key). */
import { valueOrFile, withFile } from './fileVariables';
import { ConfigError, choice, custom, flag, section, text, type Reader } from './schema';

/** TLS to the frontend; the Temporal SDKs' `TLSConfig` (src/temporal/connectionOptions.ts hands it to them). */
export interface TemporalTls {
  /** The CA that signed the frontend's certificate; the system's CAs without it. */
  serverRootCACertificate?: Buffer;
  /** The client certificate and key of mTLS. */
  clientCertPair?: { crt: Buffer; key: Buffer };
  /** The name the frontend's certificate is checked against (and sent as SNI), instead of the address's host. */
  serverNameOverride?: string;
}

const PEM_OF = { certificate: /-----BEGIN CERTIFICATE-----/, 'private key': /-----BEGIN [A-Z ]*PRIVATE KEY-----/ };

/** PEM text; `\n` escapes are accepted so that it fits one environment line. A message never quotes it. */
const pem = (what: keyof typeof PEM_OF, description: string, secret = false) =>
  custom({
    type: secret ? 'secret' : 'PEM',
    accepts: 'PEM (`\\n` escapes allowed)',
    description,
    parse: (raw, name) => {
      if (!raw) return undefined;
      const text = raw.replace(/\\n/g, '\n');
      if (!PEM_OF[what].test(text)) {
        const hint = name.endsWith('_FILE') ? '' : `; a file's path goes in ${name}_FILE`;
        throw new ConfigError(`${name} must hold a PEM ${what} (-----BEGIN …-----)${hint}`);
      }
      return Buffer.from(text);
    },
  });

const variables = {
  TEMPORAL_ADDRESS: text({ type: 'host:port', shownDefault: 'dev server', description: "the Temporal frontend; `npm start` starts a dev server without it, and the api and worker refuse to start without it" }),
  TEMPORAL_NAMESPACE: text({ default: 'default', description: 'the Temporal namespace (Temporal Cloud: `<namespace>.<account>`)' }),
  TEMPORAL_TLS: flag({
    default: false,
    yes: ['on', 'true'],
    no: ['off', 'false'],
    normalize: true,
    shownDefault: '`off`; `on` when any setting below is set',
    description: 'TLS to `TEMPORAL_ADDRESS`, its certificate checked against the system\'s CAs or `TEMPORAL_TLS_CA` (see "Connecting to a Temporal cluster")',
  }),
  ...withFile('TEMPORAL_TLS_CA', pem('certificate', "the CA that signed the frontend's certificate, instead of the system's CAs")),
  ...withFile('TEMPORAL_TLS_CERT', pem('certificate', 'the client certificate of mTLS, with `TEMPORAL_TLS_KEY`')),
  ...withFile('TEMPORAL_TLS_KEY', pem('private key', "the client certificate's private key", true)),
  TEMPORAL_TLS_SERVER_NAME: text({
    trim: true,
    shownDefault: "the address's host",
    description: "the name the frontend's certificate must carry (sent as SNI), when it differs from the host of `TEMPORAL_ADDRESS`",
  }),
  ...withFile('TEMPORAL_API_KEY', text({ secret: true, trim: true, description: 'a Temporal Cloud API key, sent as `Authorization: Bearer` on every call' })),
  HANGAR_TASK_QUEUE: text({ default: 'hangar', description: "the task queue of Hangar's workflows (a worker host's own queue is `{queue}@{host id}`)" }),
  HANGAR_TEMPORAL_SEARCH_ATTRIBUTES: choice({
    values: ['on', 'off'],
    default: 'on',
    description:
      '`on`: every workflow carries Hangar\'s search attributes and memo, and the api and worker refuse to start when the namespace lacks them (see "Temporal search attributes"); `off`: workflows carry neither (a cluster where they cannot be registered)',
  }),
};

export const temporal = section('Temporal', variables, {}, (read) => ({
  temporalAddress: read.get('TEMPORAL_ADDRESS'),
  temporalNamespace: read.get('TEMPORAL_NAMESPACE'),
  ...security(read),
  /**
   * `HANGAR_TEMPORAL_SEARCH_ATTRIBUTES`: `on` (default) sets Hangar's search attributes and memo
   * on every workflow, and the API and worker refuse to start when the namespace lacks them;
   * `off` for a cluster where they cannot be registered.
   */
  temporalSearchAttributes: read.get('HANGAR_TEMPORAL_SEARCH_ATTRIBUTES') === 'on',
  taskQueue: read.get('HANGAR_TASK_QUEUE'),
}));

/**
 * TLS (undefined: plaintext) and the API key of the connections to `TEMPORAL_ADDRESS`. Any of the
 * TLS settings or an API key turns TLS on; they apply to that address only, never to the dev
 * server `npm start` runs without it.
 */
function security(read: Reader<typeof variables>): { temporalTls: TemporalTls | undefined; temporalApiKey: string | undefined } {
  const ca = valueOrFile(read, 'TEMPORAL_TLS_CA');
  const crt = valueOrFile(read, 'TEMPORAL_TLS_CERT');
  const key = valueOrFile(read, 'TEMPORAL_TLS_KEY');
  const serverName = read.get('TEMPORAL_TLS_SERVER_NAME');
  const apiKey = valueOrFile(read, 'TEMPORAL_API_KEY');
  if (!crt !== !key) {
    throw new ConfigError(`TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (each or its _FILE): ${crt ? 'TEMPORAL_TLS_KEY' : 'TEMPORAL_TLS_CERT'} is missing`);
  }
  const given = Object.entries({ TEMPORAL_TLS_CA: ca, TEMPORAL_TLS_CERT: crt, TEMPORAL_TLS_SERVER_NAME: serverName, TEMPORAL_API_KEY: apiKey })
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  const on = read.get('TEMPORAL_TLS');
  if (!on && given.length === 0) return { temporalTls: undefined, temporalApiKey: undefined };
  const need = (names: string[]) => `${names.join(', ')} ${names.length > 1 ? 'need' : 'needs'}`;
  if (!on && read.isSet('TEMPORAL_TLS')) throw new ConfigError(`TEMPORAL_TLS is off, but ${need(given)} TLS`);
  if (!read.get('TEMPORAL_ADDRESS')) {
    const settings = read.isSet('TEMPORAL_TLS') ? ['TEMPORAL_TLS', ...given] : given;
    throw new ConfigError(`${need(settings)} TEMPORAL_ADDRESS (the dev server \`npm start\` runs without it speaks plaintext)`);
  }
  return {
    temporalTls: {
      ...(ca && { serverRootCACertificate: ca }),
      ...(crt && key && { clientCertPair: { crt, key } }),
      ...(serverName && { serverNameOverride: serverName }),
    },
    temporalApiKey: apiKey,
  };
}
