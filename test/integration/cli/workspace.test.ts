/**
 * One real workspace through the `hangar` command: `create` follows it through its start hook to
 * active and its first turn to the end, `send` follows later turns (a failing one exits 1), and
 * `read`, `preview` and `delete` act on it. Real Temporal, worker, Docker and test agent.
 */
import { expect } from 'chai';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { hangar, json } from './support';

describe('hangar (user commands) on a real workspace', function () {
  this.timeout(300_000);

  it('creates a workspace and follows it, sends messages and follows their turns, then deletes it', async () => {
    const org = await newOrg('cli-e2e');
    const key = org.admin.personal_api_key;
    const saved = await as(org.org_api_key).post('/v1/environments/global/start-hooks/save', { content: 'echo "preparing the cli workspace"' });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(201);

    const created = await hangar(['create', 'cli-e2e', '--agent', 'agent_1', '--message', 'hello from the command line'], { key, timeoutMs: 240_000 });
    expect(created.code, created.stdout + created.stderr).to.equal(0);
    const lines = created.stdout.trim().split('\n');
    const id = /^created cli-e2e \(([0-9a-f-]{36})\): preparing$/.exec(lines[0]!)?.[1];
    expect(id, created.stdout).to.be.a('string');
    // The steps in the order they happen, each once (deltas between them vary with the agent).
    const steps = ['workspace: preparing', 'start hooks: running 1', /^start hook \S+: done \(1\/1\)$/, 'start hooks: completed', 'workspace: active', 'turn: started', 'turn: completed'];
    let at = 0;
    for (const step of steps) {
      const found = lines.findIndex((line, i) => i >= at && (typeof step === 'string' ? line === step : step.test(line)));
      expect(found, `${String(step)} after line ${at} in:\n${created.stdout}`).to.be.greaterThan(at - 1);
      at = found + 1;
    }
    expect(created.stdout).to.match(/^ {2}agent_1-\w+: .*hello from the command line/m);
    expect(created.stdout + created.stderr).not.to.include(key);

    // Unquoted words are one message; with --json stdout is the API's answer and progress goes to stderr.
    const sent = await hangar(['send', id!, '--json', 'second', 'message'], { key, timeoutMs: 120_000 });
    expect(sent.code, sent.stderr).to.equal(0);
    const answer = json(sent);
    expect(answer).to.have.keys('status', 'message_id', 'position', 'chat_id');
    expect(sent.stderr).to.match(/^turn: started$/m).and.match(/second message/).and.match(/^turn: completed$/m);

    const failed = await hangar(['send', id!, '!fail the tests asked for it'], { key, timeoutMs: 120_000 });
    expect(failed.code).to.equal(1);
    expect(failed.stdout).to.match(/^turn: failed$/m);
    expect(failed.stderr).to.match(/^hangar: the turn failed: .+\n$/);

    const fromStdin = await hangar(['send', id!, '-', '--no-wait'], { key, input: 'piped in\n' });
    expect(fromStdin.code, fromStdin.stderr).to.equal(0);
    expect(fromStdin.stdout).to.match(/^message [0-9a-f-]{36} (sent|queued)/);
    await until('the piped message to be answered', async () => {
      const history = await as(key).get(`/v1/replica/${id}/history?limit=50`);
      return JSON.stringify(history.body.events).includes('piped in') && !(await as(key).get(`/v1/replica/${id}`)).body.replica.chats[0].processing;
    }, 120_000, 500);

    const read = await hangar(['read', id!, '--limit', '200'], { key });
    expect(read.code, read.stderr).to.equal(0);
    const text = read.stdout;
    expect(text.indexOf('hello from the command line')).to.be.within(0, text.indexOf('second message'));
    expect(text.indexOf('second message')).to.be.lessThan(text.indexOf('piped in'));

    const shared = await hangar(['preview', 'create', id!, '3000'], { key });
    expect(shared.code, shared.stderr).to.equal(0);
    expect(shared.stdout).to.match(/^port 3000 shared: http/);
    const previews = await hangar(['preview', id!, '--json'], { key });
    expect(json(previews)).to.deep.equal((await as(key).get(`/v1/workspaces/${id}/previews`)).body);
    const link = await hangar(['preview', 'link', id!, '3000', '--expires', '120'], { key });
    expect(link.stdout).to.match(/^http\S+ {2}\(until \d{4}-/);
    const unshared = await hangar(['preview', 'delete', id!, '3000'], { key });
    expect(unshared.stdout).to.equal('port 3000 no longer shared\n');

    const deleted = await hangar(['delete', id!], { key });
    expect(deleted.code, deleted.stderr).to.equal(0);
    const gone = await hangar(['get', id!], { key });
    expect(gone.code).to.equal(1);
    expect(gone.stderr).to.match(/^hangar: [^\n]+\n$/);
  });
});
