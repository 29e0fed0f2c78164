/** Mocha root hooks: the integration harness starts once for the whole run. */
import { startSharedHarness, stopSharedHarness } from './harness';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    await startSharedHarness();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopSharedHarness();
  },
};
