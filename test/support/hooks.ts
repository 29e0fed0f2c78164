/**
 * Mocha's fixtures for the integration suite. The run starts one Temporal dev server
 * (test/support/testRun.ts). Each process that runs test files starts one harness, on its first
 * file, and keeps it for the files that follow: with `--parallel` mocha runs the root hooks
 * around every file in each worker process, and ends its workers with `process.exit`, so a
 * worker's harness is removed at the run's end from what it wrote down. In one process (a
 * single file, `--no-parallel`) the harness closes itself after the last file.
 */
import { config as chaiConfig } from 'chai';
import { startSharedHarness, stopSharedHarness, sharedHarnessRunning } from './harness';
import { endTestRun, recordFileTime, startTestRun } from './testRun';

// A failure in CI is read once, from its log: print what was compared in full, not its first 40
// characters (a command's error output cut to "reaching Hanga…" names no cause).
chaiConfig.truncateThreshold = 0;

/** Mocha sets this in the processes of a parallel run. */
const IN_PARALLEL_WORKER = process.env.MOCHA_WORKER_ID !== undefined;

let fileStarted = 0;

export async function mochaGlobalSetup(): Promise<void> {
  await startTestRun();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await endTestRun();
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    // A file's wall time includes the harness's start when it is the worker's first.
    fileStarted = Date.now();
    if (!sharedHarnessRunning()) await startSharedHarness();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    if (!IN_PARALLEL_WORKER) return stopSharedHarness();
    const file = this.test?.parent?.suites[0]?.file;
    if (file) recordFileTime(file, Date.now() - fileStarted);
  },
};
