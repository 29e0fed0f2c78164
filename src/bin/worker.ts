/** Production worker process: Temporal workflows and activities (Docker sandboxes). */
import { loadConfig, requireProductionSettings } from '../config';
import { createLogger } from '../logger';
import { startMetricsServer } from '../metrics/server';
import { migrate, openDatabase } from '../db/database';
import { startWorker } from '../processes/workerAssembly';
import { startTracing } from '../tracing';
import { onShutdown } from './shutdown';

async function main() {
  const config = loadConfig(process.env);
  requireProductionSettings(config);
  const logger = createLogger({ level: config.logLevel, base: { process: 'worker' } });
  const tracing = config.tracing ? startTracing(config.tracing, 'hangar-worker') : undefined;
  if (config.tracing) logger.info('traces exported over OTLP', { collector: new URL(config.tracing.endpoint).host });
  const database = await openDatabase(config, logger);
  await migrate(database, config);
  const worker = await startWorker({ config, logger, database, temporalAddress: config.temporalAddress!, tracing });
  logger.info('worker running', { taskQueue: config.taskQueue, hostId: config.workerHostId });
  const { workerPort, workerHost, token } = config.metrics;
  const metrics = workerPort > 0 ? await startMetricsServer({ port: workerPort, host: workerHost, token, logger, health: worker.health }) : null;
  if (metrics) logger.info('worker metrics listening', { host: workerHost, port: workerPort, auth: token ? 'bearer token' : 'none' });
  onShutdown(logger, async () => {
    await metrics?.close();
    await worker.shutdown();
    await database.close();
    // Last: flushes the spans of everything above, workflow spans included.
    await tracing?.shutdown();
  });
  await worker.running;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
