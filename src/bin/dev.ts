/**
 * `npm start`: the whole service in one process for a laptop. A Temporal dev server child
 * process (file-backed, with its UI), the embedded database unless DATABASE_URL is set,
 * migrations, a worker and the API. The first start seeds a dev organization and writes its
 * keys to .hangar/dev-credentials.json; later starts reuse the same data.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createAdmin } from '../admin';
import { loadConfig } from '../config';
import { generateEncryptionKey } from '../crypto/secretBox';
import { createLogger } from '../logger';
import { buildApi, migrate, openDatabase, startWorker } from '../processes';
import { freePort, startTemporalDevServer, stopStaleDevServer } from '../temporal/devServer';
import { startTracing } from '../tracing';
import { defaultSandboxImage, resolveTemporalCli } from '../toolchain';
import { onShutdown } from './shutdown';

/** The shape of .hangar/dev-credentials.json. */
export interface DevCredentials {
  organization_id: string;
  user_id: string;
  org_api_key: string;
  personal_api_key: string;
  base_url: string;
  temporal_ui_url: string | null;
}

function readJson<T>(path: string): T | null {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : null;
}

/** The dev encryption key lives beside the data it protects, created on first start. */
function devEncryptionKeys(dataDir: string): string {
  const path = join(dataDir, 'dev-secrets.json');
  const existing = readJson<{ encryption_keys: string }>(path);
  if (existing) return existing.encryption_keys;
  const created = { encryption_keys: generateEncryptionKey('dev') };
  writeFileSync(path, JSON.stringify(created, null, 2) + '\n', { mode: 0o600 });
  return created.encryption_keys;
}

async function startTemporal(dataDir: string, logger: ReturnType<typeof createLogger>) {
  const cliPath = resolveTemporalCli();
  if (cliPath) {
    // A server a killed start left running holds the file and the usual ports: it goes first.
    await stopStaleDevServer(join(dataDir, 'temporal.db'), logger);
    // Temporal's usual ports when they are free, so its UI is where people expect it.
    const port = Number(process.env.HANGAR_TEMPORAL_PORT) || ((await portIsFree(7233)) ? 7233 : undefined);
    const uiPort = Number(process.env.HANGAR_TEMPORAL_UI_PORT) || ((await portIsFree(8233)) ? 8233 : undefined);
    return startTemporalDevServer({ cliPath, dbFile: join(dataDir, 'temporal.db'), uiPort, port, logger });
  }
  // Machines with internet and no CLI: the SDK downloads a dev server.
  logger.warn('no Temporal CLI found; asking the Temporal SDK to download a dev server');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const uiPort = await freePort();
  const env = await TestWorkflowEnvironment.createLocal({ server: { dbFilename: join(dataDir, 'temporal.db'), ui: true, uiPort } });
  return { address: env.address, uiUrl: `http://127.0.0.1:${uiPort}`, stop: () => env.teardown() };
}

async function portIsFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((res) => {
    const s = createServer().once('error', () => res(false));
    s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
  });
}

async function main() {
  const dataDir = resolve(process.env.HANGAR_DATA_DIR || '.hangar');
  mkdirSync(dataDir, { recursive: true });
  const env = { ...process.env };
  env.HANGAR_ENCRYPTION_KEYS ||= devEncryptionKeys(dataDir);
  env.HANGAR_SANDBOX_OWNER ||= 'hangar-dev';
  const config = loadConfig(env, { sandboxImage: defaultSandboxImage(env) });
  const logger = createLogger({ level: config.logLevel, base: { process: 'dev' } });
  // One provider for the whole process: the API and the worker report as one service.
  const tracing = config.tracing ? startTracing(config.tracing, 'hangar') : undefined;

  const temporal = config.temporalAddress ? { address: config.temporalAddress, uiUrl: null, stop: async () => {} } : await startTemporal(dataDir, logger);
  const database = await openDatabase(config, logger, join(dataDir, 'pgdata'));
  // The embedded database allows one process; `hangar admin` checks this file.
  const pidFile = join(dataDir, 'dev.pid');
  if (database.embedded) writeFileSync(pidFile, String(process.pid));
  await migrate(database, config);
  const worker = await startWorker({ config, logger, database, temporalAddress: temporal.address, tracing });
  const api = await buildApi({ config, logger, database, temporalAddress: temporal.address, tracing });
  const server = await api.listen(config.port, config.host);
  const baseUrl = config.publicBaseUrl ?? `http://localhost:${config.port}`;

  const credentialsPath = join(dataDir, 'dev-credentials.json');
  let credentials = readJson<DevCredentials>(credentialsPath);
  const known = credentials && (await database.repos.identity.findOrganization(credentials.organization_id));
  if (!credentials || !known) {
    const org = await createAdmin(database.repos).createOrganization({ name: 'Dev organization', adminEmail: 'dev@localhost', adminName: 'Dev' });
    credentials = {
      organization_id: org.organization_id,
      user_id: org.admin.user_id,
      org_api_key: org.org_api_key,
      personal_api_key: org.admin.personal_api_key,
      base_url: baseUrl,
      temporal_ui_url: temporal.uiUrl,
    };
  }
  credentials = { ...credentials, base_url: baseUrl, temporal_ui_url: temporal.uiUrl };
  writeFileSync(credentialsPath, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });

  process.stdout.write(
    [
      '',
      `Hangar is running at ${baseUrl}  (API docs: ${baseUrl}/docs)`,
      `Temporal UI:        ${temporal.uiUrl ?? `(external cluster at ${temporal.address})`}`,
      `Database:           ${database.embedded ? `embedded (${join(dataDir, 'pgdata')})` : 'DATABASE_URL'}`,
      `Org API key:        ${credentials.org_api_key}`,
      `Personal API key:   ${credentials.personal_api_key}`,
      `Saved to ${credentialsPath}`,
      '',
      `Try: curl -H "Authorization: Bearer ${credentials.org_api_key}" ${baseUrl}/v1/environments`,
      '',
    ].join('\n'),
  );

  onShutdown(logger, async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await api.close();
    await worker.shutdown();
    await database.close();
    rmSync(pidFile, { force: true });
    await temporal.stop();
    await tracing?.shutdown();
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
