/** Production API process: HTTP only. Reads config → builds deps → listens → closes on signal. */
import { loadConfig, requireProductionSettings } from '../config';
import { createLogger } from '../logger';
import { buildApi, migrate, openDatabase } from '../processes';
import { onShutdown } from './shutdown';

async function main() {
  const config = loadConfig(process.env);
  requireProductionSettings(config);
  const logger = createLogger({ level: config.logLevel, base: { process: 'api' } });
  const database = await openDatabase(config, logger);
  // Both processes migrate at start; knex's migration lock makes concurrent starts safe.
  await migrate(database, config);
  const api = await buildApi({ config, logger, database, temporalAddress: config.temporalAddress! });
  const server = await api.listen(config.port, config.host);
  logger.info('api listening', { port: config.port });
  onShutdown(logger, async () => {
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await database.close();
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
