/**
 * `hangar admin rotate-encryption-key` as an operator runs it: secrets of every kind written
 * through the API under one key, API processes restarted with a new key in front, the command
 * run beside them, and afterwards an API with only the new key reads everything back.
 *
 * The suite's own database holds values of every other test under the suite's key, so each
 * test runs on a database of its own (on the same server) with API processes of its own; their
 * workflows go to a task queue nobody serves.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createAdmin, type CreatedOrganization } from '../../../src/admin';
import { credentialFields } from '../../../src/agents/credentials';
import { parseEncryptionKeys, type Config, type EncryptionKey } from '../../../src/config';
import { createLookupHashes } from '../../../src/crypto/lookupHashes';
import { SEALED_COLUMNS, sealedField } from '../../../src/crypto/sealedFields';
import { createSecretBox, generateEncryptionKey } from '../../../src/crypto/secretBox';
import { hashEngineSecret } from '../../../src/domain/replicas';
import { gatewayKey } from '../../../src/gateway';
import { silentLogger } from '../../../src/logger';
import { buildApi, migrate, openDatabase, type ApiProcess, type Database } from '../../../src/processes';
import { createEncryptionRotation, type RotationReport } from '../../../src/services/encryptionRotation';
import { harness, SERVER_URL, withServer } from '../../support/harness';
import { sealV1 } from '../../support/sealedV1';

const run = promisify(execFile);
const GITLAB_TOKEN = 'gitlab-rotation-webhook-token-12';

const key = (prefix: string): EncryptionKey => parseEncryptionKeys(generateEncryptionKey(`${prefix}${randomBytes(3).toString('hex')}`))[0]!;
const envValue = (keys: EncryptionKey[]) => keys.map((k) => `${k.id}:${k.key.toString('base64')}`).join(',');

interface RunningApi {
  process: ApiProcess;
  server: Server;
  call(method: string, path: string, apiKey: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

describe('hangar admin rotate-encryption-key', function () {
  let dbName: string;
  let databaseUrl: string;
  let database: Database;
  let scratch: string;
  const running: RunningApi[] = [];

  /** An API process on the rotation database with these keys, as after a restart with new settings. */
  async function startApi(keys: EncryptionKey[]): Promise<RunningApi> {
    const config: Config = { ...harness().config, databaseUrl, encryptionKeys: keys, taskQueue: `rotation-unserved-${randomBytes(3).toString('hex')}` };
    const process = await buildApi({ config, logger: silentLogger, database, temporalAddress: harness().temporal.address });
    const server = await process.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const api: RunningApi = {
      process,
      server,
      async call(method, path, apiKey, body, headers = {}) {
        const res = await fetch(base + path, {
          method,
          headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text };
      },
      async close() {
        running.splice(running.indexOf(api), 1);
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await process.close();
      },
    };
    running.push(api);
    return api;
  }

  async function rotateCli(keys: EncryptionKey[], ...args: string[]): Promise<{ code: number; report: RotationReport; stderr: string; stdout: string }> {
    const env = { ...process.env, DATABASE_URL: databaseUrl, HANGAR_DATA_DIR: scratch, HANGAR_ENCRYPTION_KEYS: envValue(keys) };
    const outcome = await run('scripts/hangar', ['admin', 'rotate-encryption-key', ...args], { env }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );
    return { ...outcome, report: (outcome.stdout ? JSON.parse(outcome.stdout) : null) as RotationReport };
  }

  const column = (report: RotationReport, table: string, name: string) => report.columns.find((c) => c.table === table && c.column === name)!;

  beforeEach(async function () {
    if (harness().database.embedded) {
      // The CLI reaches the database over DATABASE_URL; the embedded one lives in the test process.
      throw new Error('rotate-encryption-key tests need the PostgreSQL server (not HANGAR_TEST_DATABASE=embedded)');
    }
    dbName = `hangar_rotation_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await withServer((c) => c.query(`CREATE DATABASE ${dbName}`));
    const url = new URL(SERVER_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    const config: Config = { ...harness().config, databaseUrl };
    database = await openDatabase(config, silentLogger);
    await migrate(database, config);
    scratch = mkdtempSync(join(tmpdir(), 'hangar-rotation-'));
  });

  afterEach(async () => {
    for (const api of [...running]) await api.close();
    await database?.close();
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** Secrets of every kind, written through `api`, plus values from before associated data (v1). */
  async function secretsOfEveryKind(api: RunningApi, keys: { v1: EncryptionKey }) {
    const org: CreatedOrganization = await createAdmin(database.repos).createOrganization({ name: `rotation-${randomUUID().slice(0, 8)}` });
    const admin = org.admin.personal_api_key;
    const post = async (path: string, body: unknown, as = admin) => {
      const res = await api.call('POST', path, as, body);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
      return res.body;
    };
    const variable = (await post('/v1/environments/global/variables', { key: 'API_TOKEN', value: 'tok-global-1' })).environment_variable;
    const legacy = (await post('/v1/environments/global/variables', { key: 'LEGACY', value: 'placeholder' })).environment_variable;
    const source = (await post('/v1/environments', { name: 'source' })).environment;
    await post(`/v1/environments/${source.id}/variables`, { key: 'SOURCE_TOKEN', value: 'tok-source-2' });
    const file = (await post(`/v1/environments/${source.id}/files`, { path: '~/.config/tool.json', content: '{"token":"file-secret-3"}' })).environment_file;
    const mcp = (await post(`/v1/environments/${source.id}/mcps`, { name: 'docs', transport: 'http', config: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer mcp-secret-4' } } })).environment_mcp;
    // A team environment created from another gets copies, sealed for their own rows.
    const copy = (await post('/v1/environments', { name: 'copy', source_environment_id: source.id })).environment;
    await post('/v1/organization/credentials/agent_1', { kind: 'oauth_token', secret: 'sk-org-credential-5-abcdef', refresh_token: 'rt-org-refresh-6-abcdef', expires_at: '2099-01-01T00:00:00Z' });
    await post('/v1/user/credentials/agent_2', { kind: 'api_key', secret: 'sk-personal-credential-7-abcdef' });
    const automation = (
      await post('/v1/automations', { name: 'Hook', prompt: 'Handle it.', environment_id: org.global_environment_id, triggers: [{ type: 'custom', config: {} }] })
    ).automation;
    const connection = (await post('/v1/connections', { provider: 'sentry', external_id: `sentry-${randomUUID().slice(0, 8)}`, name: 'Sentry', secrets: { client_secret: 'sentry-secret-8' } }))
      .connection;
    // Its webhook token is also kept as a keyed hash, which deliveries are looked up by.
    await post('/v1/connections', { provider: 'gitlab', external_id: `gitlab.com/rotation-${randomUUID().slice(0, 8)}`, name: 'GitLab', secrets: { webhook_token: GITLAB_TOKEN, api_token: 'glpat-rotation-11' } });
    const plugin = (
      await post('/v1/plugins', { slug: 'docs', kind: 'http', config: { url: 'https://mcp.example.com/mcp', headers: { 'X-Tenant': 'acme' } }, secret: { type: 'api_key', value: 'plugin-secret-9' } })
    ).plugin;

    // Written before values were bound to their rows: v1, under the old key.
    await database.db('environment_variables').where({ id: legacy.id }).update({ value_sealed: sealV1(keys.v1, 'tok-legacy-10') });
    // Workspaces: one as the API seals it today, one from before (v1).
    const box = createSecretBox([keys.v1]);
    const workspaces = [];
    for (const old of [false, true]) {
      const id = randomUUID();
      const engineSecret = randomBytes(32).toString('base64url');
      const seal = (value: string, col: 'engine_secret_sealed' | 'webhook_secret_sealed') => (old ? sealV1(keys.v1, value) : box.seal(value, sealedField('replicas', col, id)));
      await database.db('replicas').insert({
        id,
        organization_id: org.organization_id,
        name: `rotation-${id.slice(0, 8)}`,
        status: 'active',
        coding_agent: 'agent_1',
        webhook_url: 'https://hooks.example.com/hangar',
        webhook_secret_sealed: seal(`whsec-${id.slice(0, 8)}`, 'webhook_secret_sealed'),
        engine_secret_hash: hashEngineSecret(engineSecret),
        engine_secret_sealed: seal(engineSecret, 'engine_secret_sealed'),
      });
      workspaces.push({ id, engineSecret, webhookSecret: `whsec-${id.slice(0, 8)}` });
    }
    return { org, admin, variable, legacy, source, file, mcp, copy, automation, connection, plugin, workspaces };
  }

  it('knows every sealed column of the schema', async () => {
    const { rows } = await database.db.raw(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name LIKE '%\\_sealed' ORDER BY 1, 2`,
    );
    const catalogue = Object.entries(SEALED_COLUMNS).flatMap(([table, { columns }]) => columns.map((c) => `${table}.${c}`));
    expect(rows.map((r: { table_name: string; column_name: string }) => `${r.table_name}.${r.column_name}`)).to.have.members(catalogue);
  });

  it('re-seals every sealed column while the service runs; afterwards the old key can go', async () => {
    const k1 = key('old');
    const k2 = key('new');
    const withOldKey = await startApi([k1]);
    const made = await secretsOfEveryKind(withOldKey, { v1: k1 });
    const read = (api: RunningApi, path: string) => api.call('GET', path, made.admin);
    const webhookToken = (await read(withOldKey, `/v1/automations/${made.automation.id}`)).body.automation.webhook_token;
    expect(webhookToken).to.match(/^hgr_whk_/);
    // A value moved into another row does not open (the API answers 500 rather than reveal it).
    const moved = await database.db('environment_variables').where({ id: made.variable.id }).first();
    const victim = await database.db('environment_variables').where({ environment_id: made.source.id, key: 'SOURCE_TOKEN' }).first();
    await database.db('environment_variables').where({ id: victim.id }).update({ value_sealed: moved.value_sealed });
    const refused = await read(withOldKey, `/v1/environments/${made.source.id}/variables`);
    expect(refused.status).to.equal(500);
    expect(JSON.stringify(refused.body)).not.to.include('tok-global-1');

    // Every process gets the new key in front; the old one stays until the rotation is done.
    await withOldKey.close();
    const during = await startApi([k2, k1]);

    const refusal = await rotateCli([k2, k1], '--batch-size', '0');
    expect(refusal).to.include({ code: 1, stdout: '' });
    expect(refusal.stderr).to.match(/--batch-size must be an integer from 1 to 10000/);

    const dry = await rotateCli([k2, k1], '--dry-run');
    expect(dry.code).to.equal(0);
    expect(dry.report).to.include({ dry_run: true, active_key: k2.id, resealed: 0 });
    expect(column(dry.report, 'environment_variables', 'value_sealed').remaining).to.deep.equal({ [`v1.${k1.id}`]: 1, [`v2.${k1.id}`]: 3 });
    expect(column(dry.report, 'replicas', 'engine_secret_sealed').remaining).to.deep.equal({ [`v1.${k1.id}`]: 1, [`v2.${k1.id}`]: 1 });
    expect(column(dry.report, 'connections', 'webhook_token_hash').remaining).to.deep.equal({ [`hmac.${k1.id}`]: 1 });
    expect(await database.db('environment_variables').where({ id: made.legacy.id }).first()).to.have.property('value_sealed').that.matches(/^v1\./);

    // The moved value cannot be re-sealed: reported by row, left as it is, and the command fails.
    const first = await rotateCli([k2, k1], '--batch-size', '2');
    expect(first.code, first.stderr).to.equal(1);
    expect(first.stderr).to.match(/1 sealed values are not under key/);
    const variables = column(first.report, 'environment_variables', 'value_sealed');
    expect(variables).to.deep.include({ resealed: 3, unreadable: 1, unreadable_ids: [victim.id], remaining: { [`v2.${k1.id}`]: 1 } });
    const expected: Array<[string, string, number]> = [
      ['environment_files', 'content_sealed', 2],
      ['environment_mcps', 'config_sealed', 2],
      ['agent_credentials', 'secret_sealed', 2],
      ['agent_credentials', 'refresh_token_sealed', 1],
      ['automations', 'webhook_token_sealed', 1],
      ['connections', 'secrets_sealed', 2],
      ['connections', 'webhook_token_hash', 1],
      ['plugin_installs', 'config_sealed', 1],
      ['plugin_installs', 'secret_sealed', 1],
      ['replicas', 'engine_secret_sealed', 2],
      ['replicas', 'webhook_secret_sealed', 2],
    ];
    for (const [table, name, resealed] of expected) {
      expect(column(first.report, table, name), `${table}.${name}`).to.deep.include({ resealed, changed_concurrently: 0, unreadable: 0, remaining: {} });
    }
    expect(first.report.resealed).to.equal(3 + expected.reduce((n, [, , r]) => n + r, 0));

    // The owner fixes the value through the API; a second run finds nothing left to do.
    expect((await during.call('PATCH', `/v1/environments/${made.source.id}/variables/${victim.id}`, made.admin, { value: 'tok-source-2b' })).status).to.equal(200);
    const again = await rotateCli([k2, k1]);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.report).to.include({ resealed: 0, remaining: 0, passes: 1 });
    const credential = await database.db('agent_credentials').where({ organization_id: made.org.organization_id, user_id: null }).first();
    expect(credential.key_id).to.equal(k2.id);

    // The old key leaves the configuration: everything still opens.
    await during.close();
    const newKeyOnly = await startApi([k2]);
    const globals = (await read(newKeyOnly, '/v1/environments/global/variables')).body.environment_variables;
    expect(Object.fromEntries(globals.map((v: { key: string; value: string }) => [v.key, v.value]))).to.deep.equal({ API_TOKEN: 'tok-global-1', LEGACY: 'tok-legacy-10' });
    expect((await read(newKeyOnly, `/v1/environments/${made.source.id}/variables`)).body.environment_variables[0].value).to.equal('tok-source-2b');
    const copied = (await read(newKeyOnly, `/v1/environments/${made.copy.id}/variables`)).body.environment_variables;
    expect(copied.map((v: { value: string }) => v.value)).to.deep.equal(['tok-source-2']);
    expect((await read(newKeyOnly, `/v1/environments/${made.copy.id}/files`)).body.environment_files[0].content).to.equal('{"token":"file-secret-3"}');
    expect((await read(newKeyOnly, `/v1/environments/${made.source.id}/mcps`)).body.environment_mcps[0].config.headers).to.deep.equal({ Authorization: 'Bearer mcp-secret-4' });
    expect((await read(newKeyOnly, `/v1/automations/${made.automation.id}`)).body.automation.webhook_token).to.equal(webhookToken);
    expect((await read(newKeyOnly, `/v1/connections/${made.connection.id}`)).body.connection.secrets_set).to.deep.equal(['client_secret']);
    // The GitLab token, hashed again under the new key, still finds its organization.
    const delivery = (token: string) =>
      newKeyOnly.call('POST', '/v1/webhooks/gitlab', '', { object_kind: 'push' }, { 'x-gitlab-token': token, 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': randomUUID() });
    expect((await delivery(GITLAB_TOKEN)).status).to.equal(202);
    expect((await delivery(`${GITLAB_TOKEN}-not`)).status).to.equal(401);
    expect((await read(newKeyOnly, `/v1/plugins/${made.plugin.id}`)).body.plugin.config).to.deep.equal({ url: 'https://mcp.example.com/mcp', headers: { 'X-Tenant': 'acme' } });
    const credentials = newKeyOnly.process.services.credentials;
    expect(await credentials.organizationSecret(made.org.organization_id, 'agent_1')).to.equal('sk-org-credential-5-abcdef');
    expect(await credentials.resolveCredential({ organizationId: made.org.organization_id, userId: made.org.admin.user_id, agent: 'agent_2' })).to.deep.include({
      source: 'personal',
      secret: 'sk-personal-credential-7-abcdef',
    });
    const box = createSecretBox([k2]);
    const orgFields = credentialFields({ organizationId: made.org.organization_id, userId: null }, 'agent_1');
    expect(box.open(credential.refresh_token_sealed, orgFields.refreshToken)).to.equal('rt-org-refresh-6-abcdef');
    for (const workspace of made.workspaces) {
      // The AI gateway opens the engine secret to check a workspace's key: accepted, where a wrong one is 401.
      const gateway = (secret: string) => newKeyOnly.call('GET', '/v1/ai-gateway/agent_1/v1/models', '', undefined, { 'x-api-key': gatewayKey(workspace.id, secret) });
      expect((await gateway(workspace.engineSecret)).status).not.to.equal(401);
      expect((await gateway(randomBytes(32).toString('base64url'))).status).to.equal(401);
      const row = await database.db('replicas').where({ id: workspace.id }).first();
      expect(box.open(row.webhook_secret_sealed, sealedField('replicas', 'webhook_secret_sealed', workspace.id))).to.equal(workspace.webhookSecret);
    }
    await newKeyOnly.close();
  });

  it('keeps what the service writes during a rotation, from a process with the new key or one still without it', async () => {
    const k1 = key('old');
    const k2 = key('new');
    const stale = await startApi([k1]);
    const org: CreatedOrganization = await createAdmin(database.repos).createOrganization({ name: `concurrent-${randomUUID().slice(0, 8)}` });
    const admin = org.admin.personal_api_key;
    const ids: string[] = [];
    for (const name of ['FIRST', 'SECOND', 'THIRD']) {
      ids.push((await stale.call('POST', '/v1/environments/global/variables', admin, { key: name, value: `${name.toLowerCase()}-before` })).body.environment_variable.id);
    }
    const current = await startApi([k2, k1]);

    // Between reading a page and writing it, one value is changed by a process with the new
    // key and another by one that has not been restarted yet.
    let interleaved = false;
    const report = await createEncryptionRotation({ repos: database.repos, secretBox: createSecretBox([k2, k1]), lookupHashes: createLookupHashes([k2, k1]) }).rotate({
      beforeWrite: async (table, rowIds) => {
        if (interleaved || table !== 'environment_variables') return;
        interleaved = true;
        expect(rowIds).to.include.members(ids);
        for (const [api, id, value] of [[current, ids[0], 'first-during'], [stale, ids[1], 'second-during']] as const) {
          expect((await api.call('PATCH', `/v1/environments/global/variables/${id}`, admin, { value })).status).to.equal(200);
        }
      },
    });
    expect(interleaved).to.equal(true);
    const variables = column(report, 'environment_variables', 'value_sealed');
    // The third was re-sealed at once; the first kept the service's value; the second, written
    // under the old key, was re-sealed by the next pass.
    expect(variables).to.deep.include({ changed_concurrently: 2, resealed: 2, remaining: {} });
    expect(report.passes).to.equal(2);
    await stale.close();
    await current.close();

    const newKeyOnly = await startApi([k2]);
    const values = (await newKeyOnly.call('GET', '/v1/environments/global/variables', admin)).body.environment_variables;
    expect(Object.fromEntries(values.map((v: { key: string; value: string }) => [v.key, v.value]))).to.deep.equal({
      FIRST: 'first-during',
      SECOND: 'second-during',
      THIRD: 'third-before',
    });
    await newKeyOnly.close();
  });
});
