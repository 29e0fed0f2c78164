/**
 * The user commands of `hangar` as a user runs them: the real command in a child process
 * against the suite's API. Workspaces here are rows written directly (the commands only read
 * them); workspace.test.ts runs one real workspace end to end.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { harness, reservePort } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { insertChat, insertMessage, insertReplica } from '../replicas/activitySupport';
import { hangar, json, scratchDir } from './support';

/** Every line the commands write to stderr on failure has this shape. */
const ERROR_LINE = /^hangar: [^\n]+\n$/;

describe('hangar (user commands)', function () {
  this.timeout(120_000);

  it('says who the key belongs to, from flags, the environment or the npm start credentials', async () => {
    const org = await newOrg('cli-whoami');
    const human = await hangar(['whoami'], { key: org.admin.personal_api_key });
    expect(human.code).to.equal(0);
    expect(human.stdout).to.include(org.admin.email).and.include(org.admin.user_id).and.include(harness().baseUrl);

    const viaFlags = await hangar(['whoami', '--json', '--url', harness().baseUrl, '--key', org.admin.personal_api_key], { env: { HANGAR_URL: 'http://127.0.0.1:9' } });
    expect(viaFlags.code).to.equal(0);
    expect(json(viaFlags)).to.deep.equal((await as(org.admin.personal_api_key).get('/v1/user/profile')).body);

    // Neither --key nor HANGAR_API_KEY: the personal key (and address) npm start wrote.
    const dataDir = join(scratchDir(), 'dev-seed');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'dev-credentials.json'), JSON.stringify({ organization_id: org.organization_id, personal_api_key: org.admin.personal_api_key, base_url: harness().baseUrl }));
    const seeded = await hangar(['whoami'], { env: { HANGAR_DATA_DIR: dataDir, HANGAR_URL: '' } });
    expect(seeded.code, seeded.stderr).to.equal(0);
    expect(seeded.stdout).to.include(org.admin.email);
    for (const run of [human, viaFlags, seeded]) expect(run.stdout + run.stderr).not.to.include(org.admin.personal_api_key);

    // An organization key has no user: the API's 403, one line, exit 1.
    const orgKey = await hangar(['whoami'], { key: org.org_api_key });
    expect(orgKey.code).to.equal(1);
    expect(orgKey.stderr).to.match(ERROR_LINE).and.include('Organization API keys have no user');
  });

  it('reports refusals as one line with exit 1, and wrong usage with the usage and exit 2', async () => {
    const badKey = await hangar(['list'], { key: 'hgr_not-a-real-key' });
    expect(badKey.code).to.equal(1);
    expect(badKey.stderr).to.match(ERROR_LINE);
    const { error } = (await as('hgr_not-a-real-key').get('/v1/replica')).body as { error: string };
    expect(badKey.stderr.startsWith(`hangar: ${error}`)).to.equal(true);
    expect(badKey.stdout + badKey.stderr).not.to.include('hgr_not-a-real-key');

    // send follows the events stream before posting: a missing workspace ends both, at once.
    const org = await newOrg('cli-refusals');
    const nowhere = await hangar(['send', '00000000-0000-4000-8000-000000000000', 'hello'], { key: org.org_api_key, timeoutMs: 20_000 });
    expect(nowhere.code).to.equal(1);
    expect(nowhere.stderr).to.match(ERROR_LINE);
    expect(nowhere.stderr).to.include(`hangar: ${(await as(org.org_api_key).get('/v1/replica/00000000-0000-4000-8000-000000000000')).body.error}`);

    const unknown = await hangar(['frobnicate'], { key: 'unused' });
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.match(/^hangar: unknown command "frobnicate"\n/).and.include('Usage: hangar <command>');

    const badOption = await hangar(['list', '--colour'], { key: 'unused' });
    expect(badOption.code).to.equal(2);
    expect(badOption.stderr).to.include("'--colour'").and.include('Usage: hangar list');

    const missing = await hangar(['read'], { key: 'unused' });
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.match(/^hangar: missing <id>\n/);

    const notANumber = await hangar(['read', '00000000-0000-4000-8000-000000000000', '--limit', 'ten'], { key: 'unused' });
    expect(notANumber.code).to.equal(2);
    expect(notANumber.stderr).to.include('--limit must be a whole number');

    const noKey = await hangar(['list']);
    expect(noKey.code).to.equal(2);
    expect(noKey.stderr).to.include('no API key');

    const closed = await reservePort();
    const unreachable = await hangar(['list'], { key: 'k', env: { HANGAR_URL: `http://127.0.0.1:${closed}` } });
    expect(unreachable.code).to.equal(1);
    expect(unreachable.stderr).to.equal(`hangar: cannot reach http://127.0.0.1:${closed}: ECONNREFUSED\n`);

    const help = await hangar(['--help']);
    expect(help.code).to.equal(0);
    for (const command of ['list', 'get', 'create', 'send', 'read', 'delete', 'repos', 'env', 'automation', 'preview', 'media', 'whoami', 'admin']) {
      expect(help.stdout).to.include(`hangar ${command}`);
    }
  });

  it("lists the caller's workspaces as a table or as the API's JSON, and gets and deletes one", async () => {
    const org = await newOrg('cli-list');
    const other = await newOrg('cli-list-other');
    const first = await insertReplica(org.organization_id);
    const second = await insertReplica(org.organization_id, { status: 'sleeping' });
    const foreign = await insertReplica(other.organization_id);
    const key = org.org_api_key;

    const asJson = await hangar(['list', '--json'], { key });
    expect(asJson.code, asJson.stderr).to.equal(0);
    expect(json(asJson)).to.deep.equal((await as(key).get('/v1/replica')).body);

    const human = await hangar(['list'], { key });
    expect(human.code).to.equal(0);
    const lines = human.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^ID\s+NAME\s+STATUS\s+SOURCE\s+CREATED\s+LAST ACTIVITY$/);
    expect(lines).to.have.length(3);
    expect(human.stdout).to.include(first).and.include(second).and.not.include(foreign);
    expect(lines.find((l) => l.startsWith(second))).to.match(/\ssleeping\s/);

    const filtered = await hangar(['list', '--status', 'sleeping', '--json'], { key });
    expect(json(filtered).replicas.map((r: { id: string }) => r.id)).to.deep.equal([second]);
    const paged = await hangar(['list', '--limit', '1'], { key });
    expect(paged.stdout).to.include('page 1 of 2 (2 workspaces');

    const got = await hangar(['get', first], { key });
    expect(got.code).to.equal(0);
    expect(got.stdout).to.match(new RegExp(`^id: +${first}$`, 'm')).and.match(/^status: +active$/m);
    const gotJson = await hangar(['get', first, '--json'], { key });
    expect(json(gotJson).replica.id).to.equal(first);

    const stranger = await hangar(['get', foreign], { key });
    expect(stranger.code).to.equal(1);
    expect(stranger.stderr).to.match(ERROR_LINE);

    const deleted = await hangar(['delete', first], { key });
    expect(deleted.code, deleted.stderr).to.equal(0);
    expect(deleted.stdout).to.equal(`deleted ${first}\n`);
    expect((await as(key).get(`/v1/replica/${first}`)).status).to.equal(404);
  });

  it('reads history from the newest event backwards with --limit and --offset', async () => {
    const org = await newOrg('cli-read');
    const replica = await insertReplica(org.organization_id);
    const chat = await insertChat(replica);
    const message = await insertMessage(replica, chat, { status: 'completed' });
    const start = Date.parse('2026-01-02T03:04:05Z');
    for (let n = 1; n <= 5; n++) {
      await harness().database.repos.replicaLogs.appendAgentEvent({
        replicaId: replica,
        chatId: chat,
        messageId: message,
        timestamp: new Date(start + n * 1000).toISOString(),
        type: 'agent_1-assistant',
        payload: { message: { content: [{ type: 'text', text: `step ${n}` }] } },
      });
    }
    const key = org.org_api_key;

    const newest = await hangar(['read', replica, '--limit', '2'], { key });
    expect(newest.code, newest.stderr).to.equal(0);
    expect(newest.stdout).to.equal(
      ['2026-01-02 03:04:09  agent_1-assistant: step 4', '2026-01-02 03:04:10  agent_1-assistant: step 5', '(2 of 5 events; 3 older: --offset 2)', ''].join('\n'),
    );

    const older = await hangar(['read', replica, '--limit', '2', '--offset', '2'], { key });
    expect(older.stdout.split('\n').slice(0, 2)).to.deep.equal(['2026-01-02 03:04:07  agent_1-assistant: step 2', '2026-01-02 03:04:08  agent_1-assistant: step 3']);
    expect(older.stdout).to.include('the 2 newest skipped; 1 older: --offset 4');

    const asJson = await hangar(['read', replica, '--limit', '2', '--offset', '2', '--json'], { key });
    expect(json(asJson)).to.deep.equal((await as(key).get(`/v1/replica/${replica}/history?limit=2&offset=2`)).body);
    expect(json(asJson).events.map((e: any) => e.payload.message.content[0].text)).to.deep.equal(['step 2', 'step 3']);

    const past = await hangar(['read', replica, '--offset', '9'], { key });
    expect(past.stdout).to.equal('No events at offset 9 (5 in all).\n');
  });

  it('lists repositories, repository sets and environments, and gets an environment', async () => {
    const org = await newOrg('cli-org');
    const key = org.org_api_key;
    const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: 'https://git.example.test/acme/app.git', defaultBranch: 'trunk' });
    const set = await harness().admin.addRepositorySet({ organizationId: org.organization_id, name: 'everything', repositoryIds: [repo.id] });
    const env = (await as(key).post('/v1/environments', { name: 'cli-env', repository_set_id: set.id })).body.environment;

    const repos = await hangar(['repos'], { key });
    expect(repos.code, repos.stderr).to.equal(0);
    expect(repos.stdout).to.match(new RegExp(`^${repo.id}\\s+app\\s+trunk\\s+https://git.example.test/acme/app.git$`, 'm'));
    const sets = await hangar(['repos', 'sets', '--json'], { key });
    expect(json(sets)).to.deep.equal((await as(key).get('/v1/replica/repository-sets')).body);

    const envs = await hangar(['env', '--json'], { key });
    expect(json(envs)).to.deep.equal((await as(key).get('/v1/environments')).body);
    const envTable = await hangar(['env', 'list'], { key });
    expect(envTable.stdout).to.match(new RegExp(`^${env.id}\\s+cli-env\\s+org\\s+-\\s+${set.id}$`, 'm'));
    const one = await hangar(['env', 'get', env.id], { key });
    expect(one.stdout).to.match(/^name: +cli-env$/m).and.match(new RegExp(`^repository set: ${set.id}$`, 'm'));
    const global = await hangar(['env', 'get', 'global', '--json'], { key });
    expect(json(global).environment.is_global).to.equal(true);

    const wrong = await hangar(['env', 'delete', env.id], { key });
    expect(wrong.code).to.equal(2);
    expect(wrong.stderr).to.include('unknown subcommand "delete"');
  });

  it('lists automations and their runs, and switches one off and on', async () => {
    const org = await newOrg('cli-automation');
    const key = org.org_api_key;
    const global = (await as(key).get('/v1/environments/global')).body.environment;
    const created = await as(key).post('/v1/automations', {
      name: 'nightly',
      prompt: 'tidy up',
      environment_id: global.id,
      triggers: [{ type: 'cron', config: { schedule: '0 3 * * *' } }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.automation.id;

    const listed = await hangar(['automation'], { key });
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.match(new RegExp(`^${id}\\s+nightly\\s+yes\\s+cron\\s+\\d{4}-`, 'm'));
    const off = await hangar(['automation', 'disable', id], { key });
    expect(off.stdout).to.equal('nightly: disabled\n');
    expect((await as(key).get(`/v1/automations/${id}`)).body.automation.enabled).to.equal(false);
    const onlyEnabled = await hangar(['automation', 'list', '--enabled', '--json'], { key });
    expect(json(onlyEnabled).automations).to.deep.equal([]);
    await hangar(['automation', 'enable', id], { key });
    expect((await as(key).get(`/v1/automations/${id}`)).body.automation.enabled).to.equal(true);

    const got = await hangar(['automation', 'get', id], { key });
    expect(got.stdout).to.match(/^triggers: +cron \(0 3 \* \* \*/m).and.match(/^prompt: +tidy up$/m);
    const runs = await hangar(['automation', 'runs', id], { key });
    expect(runs.stdout).to.equal('No runs yet.\n');
    const badPayload = await hangar(['automation', 'trigger', id, '--payload', '[1]'], { key });
    expect(badPayload.code).to.equal(2);
  });

  it("lists a workspace's media and downloads a file through its signed link", async () => {
    const org = await newOrg('cli-media');
    const key = org.org_api_key;
    const replica = await insertReplica(org.organization_id);
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
    const uploaded = await fetch(`${harness().baseUrl}/v1/replica/${replica}/media?filename=${encodeURIComponent('../shot.png')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(uploaded.status).to.equal(201);
    const mediaId = ((await uploaded.json()) as { media: { id: string } }).media.id;

    const listed = await hangar(['media', replica], { key });
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.match(new RegExp(`^${mediaId}\\s+image\\s+3000\\s`, 'm'));

    const dir = join(scratchDir(), `media-${mediaId}`);
    mkdirSync(dir);
    const target = join(dir, 'copy.png');
    const saved = await hangar(['media', 'download', replica, mediaId, '--output', target], { key });
    expect(saved.code, saved.stderr).to.equal(0);
    expect(readFileSync(target).equals(bytes)).to.equal(true);
    const again = await hangar(['media', 'download', replica, mediaId, '--output', target], { key });
    expect(again.code).to.equal(1);
    expect(again.stderr).to.match(ERROR_LINE).and.include('--force');

    const notes = await fetch(`${harness().baseUrl}/v1/replica/${replica}/media?filename=notes.txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
      body: 'line one\nline two\n',
    });
    const notesId = ((await notes.json()) as { media: { id: string } }).media.id;
    const piped = await hangar(['media', 'download', replica, notesId, '-o', '-'], { key });
    expect(piped.code, piped.stderr).to.equal(0);
    expect(piped.stdout).to.equal('line one\nline two\n');
  });
});
