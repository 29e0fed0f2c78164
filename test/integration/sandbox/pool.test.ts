import { expect } from 'chai';
import { SandboxImageMissingError, type SandboxRuntime } from '../../../src/sandbox';
import { containerExists, containersOf, createTestRuntime, docker, hostnameIn, SANDBOX_IMAGE, step, testOwner, waitFor } from './helpers';

const whoami = { steps: [step('environment', 'echo "host=$(hostname)"')], env: {}, files: [] };
const isOneOf = (host: string, ids: string[]) => ids.some((id) => id.startsWith(host));

describe('sandbox pool', () => {
  describe('with the default size', () => {
    let runtime: SandboxRuntime;
    let owner: string;

    beforeEach(async () => {
      owner = testOwner('pool');
      runtime = createTestRuntime(owner);
      await runtime.warm();
    });
    afterEach(() => runtime.close());

    it('serves a run from a pre-started container, removes it and refills to two idle containers', async () => {
      const idle = await containersOf(owner);
      expect(idle).to.have.length(2);
      const result = await runtime.runHooks(whoami);
      const used = hostnameIn(result.output);
      expect(isOneOf(used, idle)).to.equal(true);
      await runtime.warm();
      const after = await waitFor('the pool to hold two idle containers and not the used one', async () => {
        const ids = await containersOf(owner);
        return ids.length === 2 && !isOneOf(used, ids) && ids;
      });
      for (const id of after) expect((await docker.getContainer(id).inspect()).State.Running).to.equal(true);
      expect(await containerExists(used)).to.equal(false);
    });

    it('gives concurrent runs a container each and removes them all', async () => {
      const results = await Promise.all(Array.from({ length: 4 }, () => runtime.runHooks(whoami)));
      const hosts = results.map((r) => hostnameIn(r.output));
      expect(new Set(hosts).size).to.equal(4);
      for (const r of results) expect(r.exitCode).to.equal(0);
      await waitFor('the used containers to be removed', async () => {
        const ids = await containersOf(owner);
        return hosts.every((h) => !isOneOf(h, ids));
      });
    });

    it('discards pool containers that died and runs in a live one', async () => {
      const idle = await containersOf(owner);
      await Promise.all(idle.map((id) => docker.getContainer(id).kill()));
      const result = await runtime.runHooks(whoami);
      expect(result.exitCode, result.output).to.equal(0);
      expect(isOneOf(hostnameIn(result.output), idle)).to.equal(false);
      await waitFor('the dead containers to be removed', async () => {
        const ids = await containersOf(owner);
        return idle.every((id) => !ids.includes(id));
      });
    });

    it('removes its containers on close', async () => {
      await runtime.runHooks(whoami);
      await runtime.close();
      expect(await containersOf(owner)).to.deep.equal([]);
    });
  });

  it('replaces idle containers older than maxIdleMs instead of using them', async () => {
    const owner = testOwner('aging');
    const runtime = createTestRuntime(owner, { poolSize: 1, maxIdleMs: 1000 });
    try {
      await runtime.warm();
      const first = await containersOf(owner);
      await waitFor('the aged container to be replaced', async () => {
        const ids = await containersOf(owner);
        return first.every((id) => !ids.includes(id));
      });
      const result = await runtime.runHooks(whoami);
      expect(isOneOf(hostnameIn(result.output), first)).to.equal(false);
    } finally {
      await runtime.close();
    }
  });

  it('removes the containers a crashed process of the same owner left behind', async () => {
    const owner = testOwner('crash');
    const crashed = createTestRuntime(owner);
    await crashed.warm();
    const leftovers = await containersOf(owner);
    expect(leftovers).to.have.length(2);
    // `crashed` is never closed before the successor starts, as after a crash.
    const successor = createTestRuntime(owner, { poolSize: 1 });
    try {
      await successor.warm();
      await waitFor('the leftovers to be removed', async () => {
        const ids = await containersOf(owner);
        return leftovers.every((id) => !ids.includes(id));
      });
      const result = await successor.runHooks(whoami);
      expect(result.exitCode).to.equal(0);
    } finally {
      await successor.close();
      await crashed.close();
    }
    expect(await containersOf(owner)).to.deep.equal([]);
  });

  it("leaves the sandboxes of a sibling container of the same owner alone while it runs, and removes them once it has stopped", async () => {
    const owner = testOwner('sibling');
    // The sibling worker's container (as `docker compose up --scale worker=2` makes one).
    const sibling = await docker.createContainer({ Image: SANDBOX_IMAGE, Entrypoint: ['sleep'], Cmd: ['600'], Labels: { 'dev.hangar.test': owner } });
    await sibling.start();
    const theirs = createTestRuntime(owner, { container: sibling.id });
    try {
      await theirs.warm();
      const made = await containersOf(owner);
      expect(made).to.have.length(2);
      // A second worker of the same owner, in a container of its own, starts beside it.
      const mine = createTestRuntime(owner, { container: 'a-container-of-its-own', poolSize: 1 });
      try {
        await mine.warm();
      } finally {
        // Closing waits for its start's removal of leftovers to finish.
        await mine.close();
      }
      expect((await containersOf(owner)).filter((id) => made.includes(id)), "the sibling's sandboxes").to.have.members(made);
      // The sibling stops (killed, never closed): its sandboxes are leftovers for the next one.
      await sibling.kill();
      const next = createTestRuntime(owner, { container: 'a-container-of-its-own', poolSize: 0 });
      try {
        await waitFor("the stopped sibling's sandboxes to be removed", async () => {
          const ids = await containersOf(owner);
          return made.every((id) => !ids.includes(id));
        });
      } finally {
        await next.close();
      }
    } finally {
      await theirs.close();
      await sibling.remove({ force: true });
    }
  });

  it('creates a container per run when the pool size is 0, and removes it', async () => {
    const owner = testOwner('nopool');
    const runtime = createTestRuntime(owner, { poolSize: 0 });
    try {
      expect(await containersOf(owner)).to.deep.equal([]);
      const result = await runtime.runHooks(whoami);
      expect(result.exitCode).to.equal(0);
      await waitFor('no container of this owner to remain', async () => (await containersOf(owner)).length === 0);
    } finally {
      await runtime.close();
    }
  });

  it('says to run `npm run setup` when the image is missing', async () => {
    const owner = testOwner('noimage');
    const runtime = createTestRuntime(owner, { image: 'hangar-sandbox:does-not-exist', poolSize: 1 });
    try {
      let warmError: unknown;
      await runtime.warm().catch((err) => (warmError = err));
      expect(warmError).to.be.instanceOf(SandboxImageMissingError);
      let runError: unknown;
      await runtime.runHooks(whoami).catch((err) => (runError = err));
      expect(runError).to.be.instanceOf(SandboxImageMissingError);
      expect((runError as Error).message).to.include('hangar-sandbox:does-not-exist').and.include('npm run setup');
    } finally {
      await runtime.close();
    }
    expect(await containersOf(owner)).to.deep.equal([]);
  });
});
