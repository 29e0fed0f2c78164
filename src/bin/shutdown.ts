import type { Logger } from '../logger';

/** Runs `close` once on SIGINT/SIGTERM; a second signal exits at once. */
export function onShutdown(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) process.exit(130);
    closing = true;
    logger.info('shutting down', { signal });
    close().then(
      () => process.exit(0),
      (err) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
