/**
 * Hangar against a Temporal frontend that requires mTLS: a TLS-terminating proxy (Node's TLS
 * server, asking for a client certificate signed by its CA) in front of the dev server's
 * plaintext gRPC port; gRPC over h2 passes through unchanged once TLS is stripped. The CA, the
 * server's certificate (for `temporal.test`, while the address is 127.0.0.1) and the client's
 * are made with the openssl CLI at start. Connections are made the way the API and the worker
 * make them: the settings through `loadConfig`, the options from `temporalConnectionOptions`,
 * then `connectTemporal` and `connectWorker`.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import { silentLogger } from '../../../src/logger';
import { temporalConnectionOptions } from '../../../src/temporal/connectionOptions';
import { startTemporalDevServer, type DevServer } from '../../../src/temporal/devServer';
import { verifySearchAttributes } from '../../../src/temporal/searchAttributes';
import { connectWorker } from '../../../src/temporal/taskQueueWorkers';
import { connectTemporal } from '../../../src/temporal/workflowControl';
import { resolveTemporalCli } from '../../../src/toolchain';
import { sharedTemporalAddress } from '../../support/testRun';
import type { greeting } from './greetingWorkflow';

const SERVER_NAME = 'temporal.test';
const CLIENT_NAME = 'hangar-test-client';

const OPENSSL_CONFIG = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
[server]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:${SERVER_NAME}
[client]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
`;

/** A CA, and a server and a client certificate it signed (P-256 keys, PKCS#8), as PEM files in `dir`. */
function makeCertificates(dir: string): void {
  const config = join(dir, 'openssl.cnf');
  writeFileSync(config, OPENSSL_CONFIG);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', '-config', config, '-extensions', 'ca', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=Hangar test CA');
  for (const [name, cn] of [
    ['server', SERVER_NAME],
    ['client', CLIENT_NAME],
  ] as const) {
    openssl('req', '-new', '-config', config, ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    const serial = `0x${randomBytes(8).toString('hex')}`;
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', serial, '-days', '1', '-extfile', config, '-extensions', name, '-out', `${name}.pem`);
  }
}

/** What the proxy saw: the client certificate of each connection it let through, and each handshake it refused. */
interface ProxyLog {
  admitted: string[];
  refused: string[];
}

/** Terminates mTLS on 127.0.0.1 and pipes each connection to `target`'s plaintext port. */
async function startTlsProxy(dir: string, target: { host: string; port: number }, log: ProxyLog): Promise<{ server: Server; address: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer(
    {
      key: readFileSync(join(dir, 'server.key')),
      cert: readFileSync(join(dir, 'server.pem')),
      ca: readFileSync(join(dir, 'ca.pem')),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client: TLSSocket) => {
      log.admitted.push(String(client.getPeerCertificate().subject.CN));
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    },
  );
  server.on('tlsClientError', (err: NodeJS.ErrnoException) => log.refused.push(err.code ?? err.message));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, address: `127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}

describe('temporal: connecting through TLS (mTLS)', function () {
  this.timeout(120_000);
  const log: ProxyLog = { admitted: [], refused: [] };
  let dir: string;
  let devServer: DevServer | null = null;
  let proxy: Awaited<ReturnType<typeof startTlsProxy>>;
  const closing: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hangar-temporal-tls-'));
    makeCertificates(dir);
    let target = sharedTemporalAddress();
    if (!target) {
      const cliPath = resolveTemporalCli();
      if (!cliPath) throw new Error('no Temporal CLI found: run `npm run setup` first');
      devServer = await startTemporalDevServer({ cliPath, headless: true, logger: silentLogger });
      target = devServer.address;
    }
    const [host, port] = target.split(':');
    proxy = await startTlsProxy(dir, { host: host!, port: Number(port) }, log);
  });

  after(async () => {
    for (const connection of closing.reverse()) await connection.close().catch(() => undefined);
    for (const socket of proxy?.sockets ?? []) socket.destroy();
    await new Promise((resolve) => (proxy ? proxy.server.close(resolve) : resolve(undefined)));
    await devServer?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The configuration of a process that reaches the cluster through the proxy, with `env` besides. */
  const configWith = (env: Record<string, string>) => loadConfig({ TEMPORAL_ADDRESS: proxy.address, ...env });
  const mtls = () =>
    configWith({
      TEMPORAL_TLS_CA_FILE: join(dir, 'ca.pem'),
      TEMPORAL_TLS_CERT_FILE: join(dir, 'client.pem'),
      TEMPORAL_TLS_KEY_FILE: join(dir, 'client.key'),
      TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
    });

  it("with the CA and a client certificate: the API's client and the worker's connection both work, and a workflow runs", async () => {
    const config = mtls();
    const options = temporalConnectionOptions(config, config.temporalAddress!);
    expect(options.tls?.clientCertPair, 'the client pair from the _FILE variables').to.not.equal(undefined);

    const connection = await connectTemporal(options);
    closing.push(connection);
    const described = await connection.workflowService.describeNamespace({ namespace: config.temporalNamespace });
    expect(described.namespaceInfo?.name).to.equal(config.temporalNamespace);

    const native = await connectWorker(options, silentLogger);
    closing.push(native);
    // What the worker process checks at start, over its own connection.
    await verifySearchAttributes(native, config.temporalNamespace);

    const taskQueue = `tls-${randomBytes(4).toString('hex')}`;
    const worker = await Worker.create({ connection: native, namespace: config.temporalNamespace, taskQueue, workflowsPath: require.resolve('./greetingWorkflow') });
    const client = new Client({ connection, namespace: config.temporalNamespace });
    const answer = await worker.runUntil(client.workflow.execute<typeof greeting>('greeting', { taskQueue, workflowId: taskQueue, args: ['over mTLS'] }));
    expect(answer).to.equal('hello over mTLS');

    expect(log.admitted.length, 'connections through the proxy').to.be.at.least(2);
    expect(new Set(log.admitted)).to.deep.equal(new Set([CLIENT_NAME]));
  });

  /**
   * A client connection with `config`'s options that must fail (within 3 s rather than the API's
   * 10): what the proxy refused meanwhile, having let nothing through.
   */
  async function refusedConnection(config: ReturnType<typeof loadConfig>): Promise<string[]> {
    const refusedBefore = log.refused.length;
    const admittedBefore = log.admitted.length;
    const connecting = Connection.connect({ ...temporalConnectionOptions(config, config.temporalAddress!), connectTimeout: '3 seconds' });
    const connected = await connecting.then(
      (connection) => {
        closing.push(connection);
        return true;
      },
      () => false,
    );
    expect(connected, 'connected').to.equal(false);
    expect(log.admitted.length, 'connections through the proxy').to.equal(admittedBefore);
    return log.refused.slice(refusedBefore);
  }

  it('refuses a client with TLS and the CA but no client certificate', async () => {
    const config = configWith({ TEMPORAL_TLS_CA_FILE: join(dir, 'ca.pem'), TEMPORAL_TLS_SERVER_NAME: SERVER_NAME });
    expect(config.temporalTls).to.have.property('serverRootCACertificate');
    expect(config.temporalTls).to.not.have.property('clientCertPair');
    expect(await refusedConnection(config)).to.include('ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE');
  });

  it('refuses plaintext on the TLS port', async () => {
    const config = configWith({});
    expect(config.temporalTls).to.equal(undefined);
    expect(await refusedConnection(config), 'handshakes the proxy refused').to.have.length.greaterThan(0);
  });
});
