/**
 * Streams whose client stops reading (docs/decisions/workspaces.md, "Event stream caps and backpressure"):
 * what the server holds for the client stays bounded, whatever the source produces. The
 * server's side is observed directly: `res.writableLength` after every write.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type Docker from 'dockerode';
import { createLogger } from '../../../src/logger';
import { createDocker } from '../../../src/sandbox';
import { createTerminalManager, type TerminalManager } from '../../../src/terminals';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { createDockerOpenTty, startTtyContainer, type TtyContainer } from '../../support/ttyDocker';
import { until } from '../../support/wait';
import { startStreamsApi, type StreamsApi } from './support';

/** A socket's default high-water mark: past it a stream counts as behind. */
const HIGH_WATER_MARK = 16 * 1024;
const BUFFER_BYTES = 64 * 1024;

describe('event streams and a client that stops reading', function () {
  let api: StreamsApi;

  before(async () => {
    api = await startStreamsApi({ bufferBytes: BUFFER_BYTES });
  });
  after(async () => {
    await api?.close();
  });

  describe('a terminal printing without pause', () => {
    let docker: Docker;
    let container: TtyContainer;
    let manager: TerminalManager;
    const containers = new Map<string, string>();

    before(async () => {
      const h = harness();
      docker = createDocker(process.env);
      container = await startTtyContainer(docker);
      // The worker side, as a worker runs it, with TTYs into a plain container.
      manager = createTerminalManager({
        bus: h.database.bus,
        repository: h.database.repos.terminalSessions,
        owner: `test-streams-${randomUUID().slice(0, 8)}`,
        openTty: createDockerOpenTty(docker, (id) => containers.get(id)),
        logger: createLogger({ level: 'debug', write: (line) => h.logs.push(line) }).child({ suite: 'streams' }),
      });
      await manager.start();
    });
    after(async () => {
      await manager?.close();
      await container?.remove();
    });

    it('holds at most its buffer for the client, then ends with `overflow`, and the client resumes by Last-Event-ID', async () => {
      const org = await newOrg('stream-backpressure');
      const workspaceId = randomUUID();
      await harness().database.db('replicas').insert({
        id: workspaceId,
        organization_id: org.organization_id,
        name: `ws-${workspaceId.slice(0, 8)}`,
        status: 'active',
        coding_agent: 'agent_1',
        engine_secret_hash: 'not-used-by-these-tests',
      });
      containers.set(workspaceId, container.name);
      const base = `/v1/workspaces/${workspaceId}/terminal/sessions`;
      const created = await api.request('POST', base, org.org_api_key, { cols: 100, rows: 30 });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const session = `${base}/${created.body.session.id}`;

      const stalled = await api.open(`${session}/stream`, org.org_api_key, { paused: true });
      expect(stalled.status).to.equal(200);
      // Far more than the kernel and the buffer hold: 4 MB of output, then a marker.
      const command = "head -c 4000000 /dev/zero | tr '\\0' x; echo; echo done-$((6*7))\n";
      expect((await api.request('POST', `${session}/input`, org.org_api_key, { data: command, generation: 0, sequence: 0 })).status).to.equal(200);

      const server = api.serverSide(stalled);
      await until('the server to end the stalled stream', async () => server.ended, 60_000, 50);
      // Checked before each write: the buffer, plus one output message (≤ 1,000 characters)
      // and the final event, at most.
      const most = Math.max(...server.buffered);
      expect(most).to.be.greaterThan(BUFFER_BYTES);
      expect(most).to.be.at.most(BUFFER_BYTES + 4096);

      stalled.resume();
      await stalled.ended;
      const last = stalled.events.at(-1)!;
      expect(last.event).to.equal('overflow');
      expect(last.data).to.include({ type: 'overflow' });
      const lastSeen = stalled.events.filter((e) => e.event === 'output').at(-1)!.id!;
      expect(lastSeen).to.match(/^\d+$/);

      // The client reconnects from the last offset it saw, and the session's output goes on. A
      // client that falls behind again (this process also runs the server, and a busy machine
      // slows both) gets `overflow` again and reconnects again, as a real client does; every
      // reconnect starts past what it had seen.
      let from = lastSeen;
      let text = '';
      for (let reconnects = 0; !text.includes('done-42'); reconnects += 1) {
        expect(reconnects, 'reconnects before the command finished').to.be.below(20);
        const resumed = await api.open(`${session}/stream`, org.org_api_key, { headers: { 'last-event-id': from } });
        expect(resumed.status).to.equal(200);
        const outputs = () => resumed.events.filter((e) => e.event === 'output');
        await until('the marker or another overflow on the resumed stream', async () => outputs().some((e) => (e.data.data as string).includes('done-42')) || resumed.events.at(-1)?.event === 'overflow', 60_000, 50);
        resumed.close();
        const seen = outputs();
        expect(seen, 'output on the resumed stream').to.have.length.above(0);
        expect(Number(seen[0]!.id)).to.be.greaterThan(Number(from));
        from = seen.at(-1)!.id!;
        text += seen.map((e) => e.data.data as string).join('');
      }
    });
  });

  it('a hook test skips live output the client has not taken, and its `complete` still has all of it', async () => {
    const org = await newOrg('stream-backpressure');
    // The sandbox keeps 1 MiB of a hook's output: well past what the kernel and the buffer hold.
    const content = "head -c 2000000 /dev/zero | tr '\\0' y";
    const stalled = await api.open('/v1/environments/global/start-hooks/test/stream', org.org_api_key, { method: 'POST', body: { content }, paused: true });
    expect(stalled.status).to.equal(200);
    const server = api.serverSide(stalled);
    await until('the hook test to complete on the server', async () => server.ended, 120_000, 50);
    // Output is written only while the client keeps up; the last write is `complete`, which
    // carries the whole output.
    const beforeComplete = server.buffered.slice(0, -1);
    expect(Math.max(...beforeComplete)).to.be.at.most(HIGH_WATER_MARK + 4096);

    stalled.resume();
    await stalled.ended;
    const complete = stalled.events.at(-1)!;
    expect(complete.event).to.equal('complete');
    const streamed = stalled.events.filter((e) => e.event === 'output').map((e) => e.data.output as string).join('');
    expect(streamed).to.match(/\[hangar\] \d+ characters of live output skipped: the client read too slowly/);
    const ys = (text: string) => text.split('y').length - 1;
    expect(ys(complete.data.output)).to.be.greaterThan(1_000_000);
    expect(ys(streamed)).to.be.below(ys(complete.data.output));
  });
});
