/**
 * Another API process beside the shared harness's: `buildApi` with the harness's settings (and
 * any overrides), on the same database through connections of its own (the embedded database
 * has one instance per process, so there it shares the harness's), the same Temporal, and an
 * HTTP server on an ephemeral loopback port. Everything it shares with the harness's API goes
 * through PostgreSQL or Redis, as between two real processes.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig, type Config } from '../../src/config';
import { silentLogger } from '../../src/logger';
import { buildApi, openDatabase, type ApiProcess } from '../../src/processes';
import { harness } from './harness';

export interface ApiProcessHandle {
  url: string;
  config: Config;
  api: ApiProcess;
  close(): Promise<void>;
}

export async function startApiProcess(overrides: Record<string, string> = {}): Promise<ApiProcessHandle> {
  const shared = harness();
  const config = loadConfig({ ...shared.env, ...overrides });
  const database = shared.database.embedded ? shared.database : await openDatabase(config, silentLogger);
  const api = await buildApi({ config, logger: silentLogger, database, temporalAddress: shared.temporal.address });
  const server: Server = await api.listen(0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    config,
    api,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
      if (database !== shared.database) await database.close();
    },
  };
}
