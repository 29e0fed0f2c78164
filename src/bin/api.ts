/** Production API process: HTTP only. Reads config → builds deps → listens → closes on signal. */
import type { AddressInfo } from 'node:net';
import { loadConfig, requireProductionSettings } from '../config';
import { createLogger } from '../logger';
import { migrate, openDatabase } from '../db/database';
import { buildApi } from '../processes/apiAssembly';
import { startTracing } from '../tracing';
import { onShutdown } from './shutdown';

async function main() {
  const config = loadConfig(process.env);
  requireProductionSettings(config);
  const logger = createLogger({ level: config.logLevel, base: { process: 'api' } });
  const tracing = config.tracing ? startTracing(config.tracing, 'hangar-api') : undefined;
  if (config.tracing) logger.info('traces exported over OTLP', { collector: new URL(config.tracing.endpoint).host });
  const database = await openDatabase(config, logger);
  // Both processes migrate at start; an advisory lock makes concurrent starts safe (src/db/knex.ts).
  await migrate(database, config);
  const api = await buildApi({ config, logger, database, temporalAddress: config.temporalAddress!, tracing });
  const server = await api.listen(config.port, config.host);
  // The bound port: PORT=0 asks the system for a free one.
  logger.info('api listening', { port: (server.address() as AddressInfo).port });
  onShutdown(logger, async () => {
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await database.close();
    // Last: flushes the spans of everything above.
    await tracing?.shutdown();
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
