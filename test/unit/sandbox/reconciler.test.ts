/**
 * The workspace reconciler against an engine and records that change while it checks: a
 * workspace whose container stopped is asked to restart; one that starts during a check (its
 * container runs, then its record says active) is not.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import type Docker from 'dockerode';
import { createLogger } from '../../../src/logger';
import { LABEL_REPLICA } from '../../../src/sandbox/workspace/container';
import { startWorkspaceReconciler, type ActiveWorkspace } from '../../../src/sandbox/workspace/reconciler';

const silent = createLogger({ level: 'error', write: () => undefined });

/**
 * One workspace, `ws-1`, on a fake engine and a fake record. `startsDuringCheck`: whichever
 * of the two the check reads first answers as before the start, and the start (container
 * running, then the record active) happens right after that read, as a provisioning finishing
 * alongside the check would.
 */
function world(initial: { running: boolean; active: boolean }, startsDuringCheck = false) {
  const state = { ...initial };
  const restarts: string[] = [];
  let reads = 0;
  const afterRead = () => {
    reads += 1;
    if (startsDuringCheck && reads === 1) Object.assign(state, { running: true, active: true });
  };
  const events = new PassThrough();
  const docker = {
    async listContainers() {
      const listed = [{ State: state.running ? 'running' : 'exited', Labels: { [LABEL_REPLICA]: 'ws-1' } }];
      afterRead();
      return listed;
    },
    async getEvents() {
      return events;
    },
  } as unknown as Docker;
  const reconciler = startWorkspaceReconciler({
    docker,
    async activeWorkspaces(): Promise<ActiveWorkspace[]> {
      const active = state.active ? [{ replicaId: 'ws-1', key: 'ws-1' }] : [];
      afterRead();
      return active;
    },
    async requestRestart(replicaId) {
      restarts.push(replicaId);
    },
    intervalMs: 3_600_000,
    engineLostMs: 3_600_000,
    logger: silent,
  });
  return {
    restarts,
    reconciler,
    async stop() {
      events.end();
      await reconciler.stop();
    },
  };
}

describe('workspace reconciler', () => {
  it('asks an active workspace whose container is not running to restart', async () => {
    const w = world({ running: false, active: true });
    try {
      await w.reconciler.check();
      expect(w.restarts).to.deep.equal(['ws-1']);
    } finally {
      await w.stop();
    }
  });

  it('leaves alone a workspace that starts while it checks', async () => {
    const w = world({ running: false, active: false }, true);
    try {
      await w.reconciler.check();
      // A second check sees the started workspace as it is.
      await w.reconciler.check();
      expect(w.restarts).to.deep.equal([]);
    } finally {
      await w.stop();
    }
  });
});
