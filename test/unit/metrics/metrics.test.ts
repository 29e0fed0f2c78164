import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config';
import type { MetricsRepository } from '../../../src/db/metricsRepository';
import { createDatabaseGauges } from '../../../src/metrics/database';
import { scrapeAllowed } from '../../../src/metrics/server';

describe('metrics', () => {
  describe('database gauges', () => {
    const fakeRepository = (counts: { workspaces: Record<string, number>; open: number }) => {
      const calls = { reads: 0, failNext: false };
      const repository: MetricsRepository = {
        async workspacesByStatus() {
          calls.reads++;
          if (calls.failNext) {
            calls.failNext = false;
            throw new Error('database down');
          }
          return counts.workspaces;
        },
        async openDebounceWindows() {
          return counts.open;
        },
      };
      return { repository, calls };
    };

    it('reads once per cache period and shows every status', async () => {
      const counts = { workspaces: { active: 3, error: 1 }, open: 2 };
      const { repository, calls } = fakeRepository(counts);
      const registry = createDatabaseGauges(repository, { cacheMs: 60_000 });
      const text = await registry.metrics();
      expect(text).to.include('hangar_workspaces{status="active"} 3');
      expect(text).to.include('hangar_workspaces{status="sleeping"} 0');
      expect(text).to.include('hangar_debounce_windows_open 2');
      counts.workspaces.active = 4;
      await registry.metrics();
      expect(calls.reads).to.equal(1);
    });

    it('reads again after the period, and does not keep a failed read', async () => {
      const counts = { workspaces: { active: 1 }, open: 0 };
      const { repository, calls } = fakeRepository(counts);
      const registry = createDatabaseGauges(repository, { cacheMs: 0 });
      calls.failNext = true;
      await registry.metrics().then(
        () => expect.fail('the failed read should fail the scrape'),
        (err: Error) => expect(err.message).to.equal('database down'),
      );
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(await registry.metrics()).to.include('hangar_workspaces{status="active"} 1');
      counts.workspaces.active = 5;
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(await registry.metrics()).to.include('hangar_workspaces{status="active"} 5');
    });
  });

  it('compares the bearer token exactly', () => {
    expect(scrapeAllowed(undefined, undefined)).to.equal(true);
    expect(scrapeAllowed('Bearer abcdefghijklmnop', 'abcdefghijklmnop')).to.equal(true);
    expect(scrapeAllowed('bearer abcdefghijklmnop', 'abcdefghijklmnop')).to.equal(true);
    expect(scrapeAllowed('Bearer abcdefghijklmnopq', 'abcdefghijklmnop')).to.equal(false);
    expect(scrapeAllowed('abcdefghijklmnop', 'abcdefghijklmnop')).to.equal(false);
    expect(scrapeAllowed(undefined, 'abcdefghijklmnop')).to.equal(false);
  });

  it('reads its settings with off-by-default API and Temporal endpoints', () => {
    expect(loadConfig({}).metrics).to.deep.equal({ token: undefined, workerPort: 9464, workerHost: '0.0.0.0', temporalAddress: undefined });
    const set = loadConfig({ HANGAR_METRICS_TOKEN: 'a'.repeat(32), HANGAR_WORKER_METRICS_PORT: '0', HANGAR_TEMPORAL_METRICS_ADDRESS: '0.0.0.0:9465' }).metrics;
    expect(set).to.include({ token: 'a'.repeat(32), workerPort: 0, temporalAddress: '0.0.0.0:9465' });
    expect(() => loadConfig({ HANGAR_METRICS_TOKEN: 'short' })).to.throw(ConfigError, /HANGAR_METRICS_TOKEN/);
    expect(() => loadConfig({ HANGAR_TEMPORAL_METRICS_ADDRESS: '9465' })).to.throw(ConfigError, /host:port/);
    expect(() => loadConfig({ HANGAR_WORKER_METRICS_PORT: 'x' })).to.throw(ConfigError, /HANGAR_WORKER_METRICS_PORT/);
  });
});
