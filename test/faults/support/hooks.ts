/**
 * Mocha root hooks of the fault suite: one cluster (test/faults/support/cluster.ts) for every
 * case, and after each case a check that no process of it died by itself (a crash the fault
 * caused is a finding, not noise); a crashed process is started again for the next case.
 */
import { expect } from 'chai';
import { cluster, crashes, LOG_DIR, startCluster, stopCluster } from './cluster';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(240_000);
    console.log(`      [faults] process logs: ${LOG_DIR}`);
    await startCluster();
  },
  async afterEach(this: Mocha.Context) {
    this.timeout(120_000);
    const found = crashes.splice(0);
    for (const { entry } of found) await (entry === 'api' ? cluster().startApi() : cluster().startWorker());
    expect(found.map(({ entry, code, signal, output }) => `${entry} exited (${code ?? signal}):\n${output}`)).to.deep.equal([]);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(120_000);
    await stopCluster();
  },
};
