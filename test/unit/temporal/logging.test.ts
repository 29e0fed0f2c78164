import { expect } from 'chai';
import { createLogger } from '../../../src/logger';
import { temporalLogger } from '../../../src/temporal/logging';

describe('temporal sdk logger', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const logger = temporalLogger(createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) }));
    return { logger, lines };
  };

  it('writes workflow and activity messages with all their metadata, redacted, under component temporal-sdk', () => {
    const { logger, lines } = capture();
    logger.warn('checks could not be opened', { sdkComponent: 'workflow', workflowId: 'run/1', runId: 'abc', executionId: 'e1', token: 'gh-token-1', [Symbol('ts')]: 1n });
    logger.info('turn finished', { sdkComponent: 'activity', activityType: 'runTurn', attempt: 1 });
    expect(lines).to.have.length(2);
    expect(lines[0]).to.include({ level: 'warn', msg: 'checks could not be opened', component: 'temporal-sdk', sdkComponent: 'workflow', workflowId: 'run/1', runId: 'abc', executionId: 'e1', token: '[redacted]' });
    expect(lines[1]).to.include({ level: 'info', sdkComponent: 'activity', activityType: 'runTurn', attempt: 1 });
  });

  it('keeps the SDK\'s own INFO narration at debug and drops TRACE and DEBUG', () => {
    const { logger, lines } = capture();
    logger.info('Worker state changed', { sdkComponent: 'worker', state: 'RUNNING' });
    logger.debug('Activity started', { sdkComponent: 'activity' });
    logger.trace('poll', { sdkComponent: 'core' });
    logger.log('ERROR', 'core failure', { sdkComponent: 'core', error: new Error('boom') });
    expect(lines.map((l) => [l.level, l.msg])).to.deep.equal([['debug', 'Worker state changed'], ['error', 'core failure']]);
    expect(lines[1].error).to.include({ name: 'Error', message: 'boom' });
  });
});
