/** Mocha root hooks of the fault suite: one cluster (test/faults/support/cluster.ts) for every case. */
import { startCluster, stopCluster } from './cluster';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(240_000);
    await startCluster();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(120_000);
    await stopCluster();
  },
};
