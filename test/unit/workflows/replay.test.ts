/**
 * Replays histories recorded from real runs (`test/support/histories.ts`) against today's
 * workflow code: a change that would break determinism for workflows already running fails
 * here, before it is deployed.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { expect } from 'chai';
import { workflowBundle } from '../../../src/temporal/taskQueueWorkers';
import { decodeHistory, HISTORIES_DIR, WORKFLOW_TYPES, type RecordedHistory } from '../../support/histories';

describe('workflows: replay of recorded histories', function () {
  this.timeout(120_000);

  const histories = async () => {
    const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json')).sort();
    expect(new Set(files.map((f) => f.split('.')[0])), 'a workflow type has no recorded history').to.have.keys(WORKFLOW_TYPES);
    return Promise.all(
      files.map(async (file) => {
        const recorded = JSON.parse(await readFile(join(HISTORIES_DIR, file), 'utf8')) as RecordedHistory;
        return { workflowId: recorded.workflowId, history: decodeHistory(recorded) };
      }),
    );
  };

  const replayFailures = async (traced: boolean) => {
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: await workflowBundle({ traced }) }, await histories())) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    return failures;
  };

  it('replays a recorded history of every workflow type without a determinism error', async () => {
    expect(await replayFailures(false)).to.deep.equal([]);
  });

  // Histories recorded without tracing, replayed by a worker that has just had it turned on:
  // the OpenTelemetry workflow interceptors add headers and spans, never commands.
  it('replays them with the tracing workflow interceptors too', async () => {
    expect(await replayFailures(true)).to.deep.equal([]);
  });
});
