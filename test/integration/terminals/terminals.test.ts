/**
 * Terminals through HTTP: real PostgreSQL (rows and LISTEN/NOTIFY between the API side and
 * the worker side), a real TTY `docker exec` of `bash -l` in a container.
 *
 * Commands print arithmetic (`echo hi-$((6*7))` prints `hi-42`) so the TTY's echo of the
 * typed command never passes for the command's output.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { errorOf, type Answer } from '../../support/http';
import { until } from '../../support/wait';
import { api, count, createWorkspace, openStream, processes, type Rig, startRig, type Workspace } from './helpers';

/** 200 `{success: true}`, the answer of every terminal action. */
const ok = (answer: Answer) => answer.status === 200 && JSON.stringify(answer.body) === '{"success":true}';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('terminals', function () {
  let rig: Rig;

  before(async () => {
    rig = await startRig();
  });
  after(async () => {
    await rig?.close();
  });

  async function openSession(ws: Workspace, size = { cols: 100, rows: 30 }) {
    const created = await api(rig, ws.orgKey).post(ws.base, size);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.session.id as string;
    const stream = await openStream(rig, ws.orgKey, `${ws.base}/${id}/stream`);
    expect(stream.status).to.equal(200);
    return { id, stream, path: `${ws.base}/${id}` };
  }

  const input = (ws: Workspace, path: string, data: string, sequence: number, generation = 0) =>
    api(rig, ws.orgKey).post(`${path}/input`, { data, generation, sequence });

  it('runs what is typed and streams the output back (echo round trip)', async () => {
    const ws = await createWorkspace(rig);
    const { id, stream, path } = await openSession(ws);
    const sent = await input(ws, path, 'echo hi-$((6*7))\n', 0);
    expect([sent.status, sent.body]).to.deep.equal([200, { success: true }]);
    await stream.waitFor('hi-42', (out) => out.includes('hi-42'));
    expect(stream.output()).to.include('echo hi-$((6*7))');

    const listed = await api(rig, ws.orgKey).get(ws.base);
    expect(listed.status).to.equal(200);
    expect(listed.body.sessions).to.have.length(1);
    const [session] = listed.body.sessions;
    expect(session).to.have.keys('id', 'title', 'createdAt', 'exited');
    expect(session).to.include({ id, title: 'Terminal 1', exited: false });
    expect(session.id).to.match(UUID);
    expect(new Date(session.createdAt).toISOString()).to.equal(session.createdAt);
    stream.close();
  });

  it('runs the shell as the workspace user on a real TTY', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path } = await openSession(ws);
    await input(ws, path, 'echo "user=$(id -un) tty=$(tty)" | tr a-z A-Z\n', 0);
    const out = await stream.waitFor('whoami', (o) => /USER=HANGAR TTY=\/DEV\/PTS\/\d+/.test(o));
    expect(out).to.match(/USER=HANGAR TTY=\/DEV\/PTS\/\d+/);
    stream.close();
  });

  it('applies input batches in sequence order when their requests arrive out of order', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path } = await openSession(ws);
    // One command split over batches 0 and 1: applied in arrival order it would run `st-2`.
    expect((await input(ws, path, 'echo third-$((3*2))\n', 2)).status).to.equal(200);
    expect((await input(ws, path, 'st-$((1+1))\n', 1)).status).to.equal(200);
    expect(stream.output()).not.to.include('third-6');
    expect((await input(ws, path, 'echo fir', 0)).status).to.equal(200);
    const out = await stream.waitFor('third-6', (o) => o.includes('third-6'));
    expect(out).not.to.include('command not found');
    expect(out.indexOf('first-2')).to.be.greaterThan(-1);
    expect(out.indexOf('first-2')).to.be.lessThan(out.indexOf('third-6'));
    stream.close();
  });

  it('keeps order under concurrent, shuffled input requests', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path } = await openSession(ws);
    const batches = Array.from({ length: 12 }, (_, i) => ({ sequence: i, data: `echo line-$((${i}+100))\n` }));
    const shuffled = [...batches].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(shuffled.map((b) => input(ws, path, b.data, b.sequence)));
    expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 200));
    const out = await stream.waitFor('line-111', (o) => o.includes('line-111\r\n'));
    const printed = [...out.matchAll(/^line-(\d+)\r$/gm)].map((m) => Number(m[1]));
    expect(printed).to.deep.equal(batches.map((_, i) => i + 100));
    stream.close();
  });

  it('acknowledges a repeated sequence without applying it twice', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path } = await openSession(ws);
    expect(ok(await input(ws, path, 'echo dup-$((3*3))\n', 0))).to.equal(true);
    expect(ok(await input(ws, path, 'echo dup-$((3*3))\n', 0))).to.equal(true);
    // A held batch repeated is a duplicate too.
    expect((await input(ws, path, 'echo done-$((5*2))\n', 2)).status).to.equal(200);
    expect((await input(ws, path, 'echo done-$((5*2))\n', 2)).status).to.equal(200);
    expect((await input(ws, path, 'echo mid-$((2*2))\n', 1)).status).to.equal(200);
    const out = await stream.waitFor('done-10', (o) => o.includes('done-10'));
    expect(count(out, 'dup-9')).to.equal(1);
    expect(count(out, 'done-10')).to.equal(1);
    expect(count(out, 'mid-4')).to.equal(1);
    stream.close();
  });

  it('answers 409 for an older generation and starts afresh on a newer one', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path } = await openSession(ws);
    expect((await input(ws, path, 'echo g1-$((1*1))\n', 0, 1)).status).to.equal(200);
    const stale = await input(ws, path, 'echo g0-$((0+7))\n', 1, 0);
    expect(stale.status).to.equal(409);
    expect(errorOf(stale).details).to.match(/generation 0 is older than the session's current generation 1/);
    // The new generation numbers from 0 again.
    expect((await input(ws, path, 'echo g2-$((1+1))\n', 0, 2)).status).to.equal(200);
    const out = await stream.waitFor('g2-2', (o) => o.includes('g2-2'));
    expect(out).to.include('g1-1');
    expect(out).not.to.include('g0-7');
    stream.close();
  });

  it('answers 409 for a sequence beyond the window of held batches', async () => {
    const ws = await createWorkspace(rig);
    const { path } = await openSession(ws);
    expect((await input(ws, path, 'echo a\n', 63)).status).to.equal(200);
    const far = await input(ws, path, 'echo b\n', 64);
    expect(far.status).to.equal(409);
    expect(errorOf(far).details).to.match(/within 64 of the next expected sequence 0/);
  });

  it('resizes the TTY (stty size sees it)', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path } = await openSession(ws, { cols: 100, rows: 30 });
    await input(ws, path, 'stty size\n', 0);
    await stream.waitFor('initial size', (o) => o.includes('30 100'));
    expect(ok(await api(rig, ws.orgKey).post(`${path}/resize`, { cols: 123, rows: 45 }))).to.equal(true);
    await input(ws, path, 'stty size\n', 1);
    await stream.waitFor('new size', (o) => o.includes('45 123'));
    const row = await harness().database.db('terminal_sessions').where({ id: path.split('/').at(-1) }).first('cols', 'rows');
    expect(row).to.deep.equal({ cols: 123, rows: 45 });
    stream.close();
  });

  it('allows eight live sessions per workspace: the ninth is 429, even when they race', async () => {
    const ws = await createWorkspace(rig);
    const answers = await Promise.all(Array.from({ length: 9 }, () => api(rig, ws.orgKey).post(ws.base, { cols: 80, rows: 24 })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).to.deep.equal([201, 201, 201, 201, 201, 201, 201, 201, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(errorOf(refused).error).to.equal('Too many terminal sessions');
    expect((await api(rig, ws.orgKey).post(ws.base, { cols: 80, rows: 24 })).status).to.equal(429);

    // An exited or deleted session no longer counts.
    const first = answers.find((a) => a.status === 201)!.body.session.id;
    expect((await api(rig, ws.orgKey).delete(`${ws.base}/${first}`)).status).to.equal(200);
    expect((await api(rig, ws.orgKey).post(ws.base, { cols: 80, rows: 24 })).status).to.equal(201);
    const titles = (await api(rig, ws.orgKey).get(ws.base)).body.sessions.map((s: { title: string }) => s.title);
    expect(titles).to.have.length(8);
    expect(new Set(titles).size).to.equal(8);
  });

  it('replays recent output to a stream that reconnects, or only what it missed with Last-Event-ID', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path } = await openSession(ws);
    await input(ws, path, 'echo before-$((1+1))\n', 0);
    await stream.waitFor('before-2', (o) => o.includes('before-2'));
    await until('the prompt after before-2', async () => /before-2\r\n[\s\S]*\$ $/.test(stream.output()), 10_000, 20);
    const lastId = stream.events.at(-1)!.id!;
    stream.close();
    await stream.ended;

    await input(ws, path, 'echo during-$((2+2))\n', 1);
    const again = await openStream(rig, ws.orgKey, `${path}/stream`);
    expect(again.status).to.equal(200);
    await again.waitFor('during-4', (o) => o.includes('during-4'));
    expect(again.events[0]!.event).to.equal('output');
    expect(again.events[0]!.data.data).to.include('before-2');
    expect(count(again.output(), 'before-2')).to.equal(1);
    again.close();

    const resumed = await openStream(rig, ws.orgKey, `${path}/stream`, { 'last-event-id': lastId });
    await resumed.waitFor('during-4', (o) => o.includes('during-4'));
    expect(resumed.output()).not.to.include('before-2');
    expect(Number(resumed.events[0]!.id)).to.be.greaterThan(Number(lastId));
    resumed.close();
  });

  it('delivers the exit of the shell, then refuses input with 409', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path, id } = await openSession(ws);
    await input(ws, path, 'exit 3\n', 0);
    await stream.ended;
    expect(stream.events.at(-1)).to.deep.equal({ event: 'exit', id: undefined, data: { exitCode: 3 } });
    const session = await until('the session to show as exited', async () => {
      const s = (await api(rig, ws.orgKey).get(ws.base)).body.sessions.find((x: { id: string }) => x.id === id);
      return s?.exited ? s : undefined;
    });
    expect(session).to.include({ exited: true, exitCode: 3 });
    const late = await input(ws, path, 'echo late\n', 1);
    expect(late.status).to.equal(409);
    expect(errorOf(late).error).to.equal('Terminal session has exited');
    expect((await api(rig, ws.orgKey).post(`${path}/resize`, { cols: 90, rows: 20 })).status).to.equal(409);

    // The replay stays available after the exit.
    const after = await openStream(rig, ws.orgKey, `${path}/stream`);
    await after.ended;
    expect(after.output()).to.include('exit 3');
    expect(after.events.at(-1)!.event).to.equal('exit');
  });

  it('deletes a session: its shell stops, its stream ends, it is gone', async () => {
    const ws = await createWorkspace(rig);
    const { stream, path, id } = await openSession(ws);
    await input(ws, path, 'sleep 301\n', 0);
    await until('the job to start', async () => (await processes(rig)).includes('sleep 301') || undefined);
    expect(ok(await api(rig, ws.orgKey).delete(path))).to.equal(true);
    await stream.ended;
    expect(stream.events.at(-1)!.event).to.equal('exit');
    expect((await api(rig, ws.orgKey).get(ws.base)).body.sessions).to.deep.equal([]);
    expect(await harness().database.db('terminal_sessions').where({ id }).first()).to.equal(undefined);
    for (const answer of [await input(ws, path, 'x', 1), await api(rig, ws.orgKey).delete(path), await api(rig, ws.orgKey).post(`${path}/resize`, { cols: 80, rows: 24 })]) {
      expect(answer.status).to.equal(404);
      expect(errorOf(answer).error).to.equal('Terminal session not found');
    }
    expect((await openStream(rig, ws.orgKey, `${path}/stream`)).status).to.equal(404);
    await until('the shell and its job to be gone from the container', async () => !(await processes(rig)).includes('sleep 301') || undefined);
  });

  it('answers 404 when the workspace is not active, and for unknown sessions', async () => {
    const ws = await createWorkspace(rig);
    const { path, stream } = await openSession(ws);
    const other = randomUUID();
    expect((await api(rig, ws.orgKey).post(`${ws.base}/${other}/input`, { data: 'x', generation: 0, sequence: 0 })).status).to.equal(404);

    await harness().database.db('replicas').where({ id: ws.id }).update({ status: 'sleeping' });
    const calls = [
      await api(rig, ws.orgKey).get(ws.base),
      await api(rig, ws.orgKey).post(ws.base, { cols: 80, rows: 24 }),
      await input(ws, path, 'echo x\n', 0),
      await api(rig, ws.orgKey).post(`${path}/resize`, { cols: 80, rows: 24 }),
      await api(rig, ws.orgKey).delete(path),
    ];
    for (const answer of calls) {
      expect(answer.status).to.equal(404);
      expect(errorOf(answer)).to.deep.equal({ error: 'Workspace not found', details: 'the workspace is sleeping; terminals need an active workspace' });
    }
    expect((await openStream(rig, ws.orgKey, `${path}/stream`)).status).to.equal(404);
    for (const status of ['preparing', 'archived', 'error']) {
      await harness().database.db('replicas').where({ id: ws.id }).update({ status });
      expect((await api(rig, ws.orgKey).get(ws.base)).status).to.equal(404);
    }
    const missing = await api(rig, ws.orgKey).get(`/v1/workspaces/${randomUUID()}/terminal/sessions`);
    expect(missing.status).to.equal(404);
    stream.close();
  });

  it("answers 404 for another organization's workspace and for another user's personal one", async () => {
    const ws = await createWorkspace(rig);
    const { path, stream } = await openSession(ws);
    const stranger = await createWorkspace(rig);
    for (const answer of [
      await api(rig, stranger.orgKey).get(ws.base),
      await api(rig, stranger.orgKey).post(ws.base, { cols: 80, rows: 24 }),
      await api(rig, stranger.orgKey).post(`${path}/input`, { data: 'echo x\n', generation: 0, sequence: 0 }),
      await api(rig, stranger.orgKey).post(`${path}/resize`, { cols: 80, rows: 24 }),
      await api(rig, stranger.orgKey).delete(path),
      // A session id under the caller's own workspace is still not theirs.
      await api(rig, stranger.orgKey).post(`${stranger.base}/${path.split('/').at(-1)}/input`, { data: 'x', generation: 0, sequence: 0 }),
    ]) {
      expect(answer.status).to.equal(404);
      errorOf(answer);
    }
    expect((await openStream(rig, stranger.orgKey, `${path}/stream`)).status).to.equal(404);
    expect((await api(rig, ws.orgKey).get(ws.base)).body.sessions).to.have.length(1);

    const personal = await createWorkspace(rig, { personal: true });
    expect((await api(rig, personal.personalKey).post(personal.base, { cols: 80, rows: 24 })).status).to.equal(201);
    expect((await api(rig, personal.personalKey).get(personal.base)).body.sessions).to.have.length(1);
    expect((await api(rig, personal.orgKey).get(personal.base)).status).to.equal(404);
    const colleague = await harness().admin.createUser({ organizationId: personal.organizationId, email: `c-${randomUUID()}@example.com` });
    expect((await api(rig, colleague.personal_api_key).get(personal.base)).status).to.equal(404);
    expect((await api(rig, 'not-a-key').get(personal.base)).status).to.equal(401);
    stream.close();
  });

  it('answers 400 for bad fields', async () => {
    const ws = await createWorkspace(rig);
    const { path, stream } = await openSession(ws);
    const bad: Array<[string, unknown]> = [
      [ws.base, { cols: 1, rows: 24 }],
      [ws.base, { cols: 501, rows: 24 }],
      [ws.base, { cols: 80, rows: 0 }],
      [ws.base, { cols: 80, rows: 201 }],
      [ws.base, { cols: '80', rows: 24 }],
      [ws.base, { cols: 80.5, rows: 24 }],
      [ws.base, { cols: 80 }],
      [ws.base, { cols: 80, rows: 24, shell: 'zsh' }],
      [`${path}/resize`, { cols: 1, rows: 24 }],
      [`${path}/resize`, { cols: 80, rows: 201 }],
      [`${path}/input`, { data: 'x'.repeat(65_537), generation: 0, sequence: 0 }],
      [`${path}/input`, { data: 'x', generation: -1, sequence: 0 }],
      [`${path}/input`, { data: 'x', generation: 0, sequence: 1.5 }],
      [`${path}/input`, { data: 'x', generation: 0, sequence: '1' }],
      [`${path}/input`, { data: 42, generation: 0, sequence: 0 }],
      [`${path}/input`, { generation: 0, sequence: 0 }],
      [`${path}/input`, { data: 'x', sequence: 0 }],
      [`${path}/input`, { data: 'x', generation: 0 }],
      [`${path}/input`, { data: 'x', generation: 0, sequence: 0, extra: true }],
      [`${ws.base}/not-a-uuid/input`, { data: 'x', generation: 0, sequence: 0 }],
    ];
    for (const [where, body] of bad) {
      const answer = await api(rig, ws.orgKey).post(where, body);
      expect(answer.status, `${where} ${JSON.stringify(body).slice(0, 80)}`).to.equal(400);
      expect(errorOf(answer).details).to.be.a('string');
    }
    expect((await api(rig, ws.orgKey).post(ws.base, undefined)).status).to.equal(400);

    // The bounds themselves are fine, and the largest batch arrives intact: 64 lines of
    // 1,024 characters, one of them two bytes in UTF-8, counted by `wc -c` in the container.
    const line = 'x'.repeat(1_022) + 'é\n';
    const big = line.repeat(64);
    expect(big.length).to.equal(65_536);
    // The batch goes once wc is about to read: sent while the shell still edits its command line,
    // it would reach the line editor in raw mode and the closing ^D would be a byte, not the end.
    expect((await input(ws, path, 'stty -echo; echo wc-$((6*7))-ready; wc -c; stty echo\n', 0)).status).to.equal(200);
    await stream.waitFor('the shell to run wc', (o) => o.includes('wc-42-ready'));
    expect((await input(ws, path, big, 1)).status).to.equal(200);
    expect((await input(ws, path, '\u0004', 2)).status).to.equal(200);
    await stream.waitFor('wc -c of the big batch', (o) => /^65600\r?$/m.test(o));
    for (const size of [{ cols: 2, rows: 1 }, { cols: 500, rows: 200 }]) {
      expect((await api(rig, ws.orgKey).post(`${path}/resize`, size)).status).to.equal(200);
    }
    stream.close();
  });

  it('answers 503 when no worker can reach the workspace container', async () => {
    const ws = await createWorkspace(rig, { container: false });
    const started = Date.now();
    const answer = await api(rig, ws.orgKey).post(ws.base, { cols: 80, rows: 24 });
    expect(answer.status).to.equal(503);
    expect(errorOf(answer).error).to.equal('Terminal unavailable');
    expect(Date.now() - started).to.be.at.least(1_500);
    expect(await harness().database.db('terminal_sessions').where({ replica_id: ws.id }).first()).to.equal(undefined);
  });

  it('spreads sessions over several workers: one claims each, the others close their shell', async () => {
    const second = await rig.startManager();
    const ws = await createWorkspace(rig);
    const heldBefore = rig.manager.sessionCount();
    const opened = await Promise.all(Array.from({ length: 6 }, () => api(rig, ws.orgKey).post(ws.base, { cols: 80, rows: 24 })));
    expect(opened.map((a) => a.status)).to.deep.equal(Array(6).fill(201));
    const rows = await harness().database.db('terminal_sessions').where({ replica_id: ws.id }).select('id', 'owner');
    expect(rows).to.have.length(6);
    for (const row of rows) expect([rig.manager.owner, second.owner]).to.include(row.owner);
    // Both workers opened a shell for every request; the losers of each claim closed theirs.
    await until('the losing workers to let go', async () => rig.manager.sessionCount() - heldBefore + second.sessionCount() === 6 || undefined);
    // Every session answers, whichever worker holds it.
    for (const [i, row] of rows.entries()) {
      const stream = await openStream(rig, ws.orgKey, `${ws.base}/${row.id}/stream`);
      expect((await input(ws, `${ws.base}/${row.id}`, `echo s${i}-$((${i}+1000))\n`, 0)).status).to.equal(200);
      await stream.waitFor(`s${i}`, (o) => o.includes(`s${i}-${i + 1000}`));
      stream.close();
    }
    await second.close();
    const afterClose = await harness().database.db('terminal_sessions').where({ owner: second.owner }).select('exited');
    expect(afterClose.every((r: { exited: boolean }) => r.exited)).to.equal(true);
  });

  it('marks sessions of a worker that no longer answers as exited, freeing their slots', async () => {
    const ws = await createWorkspace(rig);
    const ghost = `ghost-${randomUUID().slice(0, 8)}`;
    await harness().database.db('terminal_sessions').insert(
      Array.from({ length: 8 }, (_, i) => ({ id: randomUUID(), replica_id: ws.id, owner: ghost, cols: 80, rows: 24, title: `Terminal ${i + 1}` })),
    );
    const created = await api(rig, ws.orgKey).post(ws.base, { cols: 80, rows: 24 });
    expect(created.status).to.equal(201);
    const sessions = (await api(rig, ws.orgKey).get(ws.base)).body.sessions;
    expect(sessions).to.have.length(9);
    expect(sessions.filter((s: { exited: boolean }) => !s.exited).map((s: { id: string }) => s.id)).to.deep.equal([created.body.session.id]);
  });
});
