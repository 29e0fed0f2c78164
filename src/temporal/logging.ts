/**
 * The Temporal SDK's `Logger` over Hangar's: the worker's own messages, the native core's, and
 * what workflow code (`log` from @temporalio/workflow, through the SDK's logger sink) and
 * activities write all become Hangar JSON lines, redacted like every other line.
 */
import type { Logger as TemporalLogger, LogLevel as TemporalLogLevel, LogMetadata } from '@temporalio/worker';
import type { Logger } from '../logger';

/**
 * The SDK narrates its own lifecycle at INFO (worker state, bundle built), which reads as
 * noise beside Hangar's own lines, so it is kept at debug; what workflow and activity code
 * says at INFO is the application speaking and stays info. TRACE and DEBUG are not written.
 */
function targetLevel(level: TemporalLogLevel, component: unknown): keyof Omit<Logger, 'child'> | null {
  switch (level) {
    case 'TRACE':
    case 'DEBUG':
      return null;
    case 'INFO':
      return component === 'workflow' || component === 'activity' ? 'info' : 'debug';
    case 'WARN':
      return 'warn';
    case 'ERROR':
      return 'error';
  }
}

export function temporalLogger(logger: Logger): TemporalLogger {
  const sdkLogger = logger.child({ component: 'temporal-sdk' });
  const log = (level: TemporalLogLevel, message: string, meta?: LogMetadata) => {
    const fields = { ...(meta ?? {}) } as Record<string, unknown>;
    const target = targetLevel(level, fields.sdkComponent);
    if (target) sdkLogger[target](message, fields);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}
