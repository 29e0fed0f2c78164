/**
 * Screenshots of the web console's main pages for docs/console/*.png (`npm run
 * console:screenshots`). It starts the test harness (PostgreSQL, Temporal, the API), seeds an
 * organization with automations, a run, a workspace with chats, hook logs and a preview, opens
 * a real terminal into a plain sandbox container, and photographs each page in headless
 * Chromium at 1280x800.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createReplicaEventEmitter } from '../src/events/replicaEvents';
import { harness, startSharedHarness, stopSharedHarness } from '../test/support/harness';
import { as, newOrg } from '../test/support/http';
import { insertRun, insertWorkspace, launchBrowser, signedIn, startTerminalRig } from '../test/integration/console/support';

const OUT = join(__dirname, '..', 'docs', 'console');

async function seed() {
  const h = harness();
  const org = await newOrg('acme');
  const api = as(org.org_api_key);
  const env = (await api.post('/v1/environments', { name: 'web-app' })).body.environment;
  const create = async (name: string, prompt: string, triggers: unknown[]) =>
    (await api.post('/v1/automations', { name, prompt, environment_id: env.id, triggers })).body.automation;
  const nightly = await create('Nightly dependency review', 'Review the dependency updates opened since yesterday and summarise the risky ones.', [
    { type: 'cron', config: { schedule: '0 3 * * *', timezone: 'Europe/Paris' } },
  ]);
  await create('Deploy check', 'Check the last deploy: error rates, slow endpoints, failed jobs.', [{ type: 'custom', config: {} }]);
  await create('Flaky test triage', 'Find the flaky tests of the last CI runs and open an issue for each.', [{ type: 'cron', config: { schedule: '30 7 * * 1-5' } }]);

  const workspace = await insertWorkspace(org.organization_id, 'nightly-dependency-review');
  await insertRun(nightly.id, org.organization_id, null, 'completed');
  const run = await insertRun(nightly.id, org.organization_id, workspace, 'running');
  const chatId = randomUUID();
  await h.database.db('replica_chats').insert({ id: chatId, replica_id: workspace, provider: 'agent_1', title: 'Dependency review', processing: true });
  await h.database.db('replica_chats').insert({ id: randomUUID(), replica_id: workspace, provider: 'agent_2', title: 'Follow-up questions', processing: false });
  const say = (type: string, text: string) =>
    h.database.repos.replicaLogs.appendAgentEvent({
      replicaId: workspace,
      chatId,
      messageId: randomUUID(),
      timestamp: new Date().toISOString(),
      type,
      payload: { type: type.replace('agent_1-', ''), message: { content: [{ type: 'text', text }] } },
    });
  await say('agent_1-user', 'Review the dependency updates opened since yesterday and summarise the risky ones.');
  await say('agent_1-assistant', 'Three updates are open: typescript 6.0.3, pg 8.23.1 and undici 7.30.2. Checking their changelogs now.');
  await h.database.repos.replicaLogs.insertHookLogs(workspace, [
    { kind: 'start', hook_type: 'environment', hook_name: 'environment', script: 'npm ci', output: 'added 812 packages in 14s\n', output_total_chars: 26, exit_code: 0, timed_out: false },
    { kind: 'warm', hook_type: 'repository', hook_name: 'web-app', script: 'npm run build', output: '> web-app@1.4.0 build\n> tsc -p .\n', output_total_chars: 33, exit_code: 0, timed_out: false },
  ]);
  await api.post(`/v1/workspaces/${workspace}/previews`, { port: 3000 });
  const emitter = createReplicaEventEmitter(h.database.repos.replicaEvents, h.database.bus);
  await emitter.emit(workspace, 'engine.ready', { version: 'v1' });
  await emitter.emit(workspace, 'chat.created', { chat: { id: chatId, title: 'Dependency review' } });
  await emitter.emit(workspace, 'chat.turn.started', { chatId, messageId: randomUUID() });
  await emitter.emit(workspace, 'chat.turn.delta', {
    chatId,
    event: { type: 'agent_1-assistant', payload: { message: { content: [{ type: 'text', text: 'Three updates are open; checking their changelogs now.' }] } } },
  });
  return { org, nightly, run, workspace, chatId, emitter };
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`wrote docs/console/${name}.png`);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  await startSharedHarness();
  const rig = await startTerminalRig();
  const browser = await launchBrowser();
  try {
    const { org, nightly, run, workspace, chatId, emitter } = await seed();
    rig.containers.set(workspace, rig.container.name);
    const base = `${harness().baseUrl}/console`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

    await page.goto(base);
    await page.locator('#login').waitFor();
    await shoot(page, 'login');
    await signedIn(page, org.org_api_key);
    await page.locator('#automation-list a', { hasText: 'Deploy check' }).waitFor();
    await shoot(page, 'automations');

    await page.goto(`${base}#/automations/${nightly.id}`);
    await page.locator('#runs .status-running').waitFor();
    await shoot(page, 'automation-runs');

    await page.goto(`${base}#/automations/${nightly.id}/runs/${run}`);
    await page.locator('.events li[data-type="chat.turn.delta"]').waitFor();
    await page.locator('.stream-state[data-state="open"]').waitFor();
    await shoot(page, 'run-events');

    await page.goto(`${base}#/workspaces`);
    await page.locator('table a', { hasText: 'nightly-dependency-review' }).waitFor();
    await shoot(page, 'workspaces');

    await page.goto(`${base}#/workspaces/${workspace}`);
    await page.locator('.hook-log').first().waitFor();
    await page.locator('.hook-log summary').first().click();
    await page.locator('.stream-state[data-state="open"]').waitFor();
    // This page follows events from the moment it opens.
    await emitter.emit(workspace, 'chat.updated', { chat: { id: chatId, title: 'Dependency review', processing: true } });
    await page.locator('.events li[data-type="chat.updated"]').waitFor();
    await shoot(page, 'workspace');

    await page.goto(`${base}#/workspaces/${workspace}/chats/${chatId}`);
    await page.locator('.transcript li', { hasText: 'Three updates are open' }).waitFor();
    await page.locator('.stream-state[data-state="open"]').waitFor();
    await shoot(page, 'chat');

    await page.goto(`${base}#/workspaces/${workspace}/terminal`);
    await page.locator('#new-terminal').click();
    await page.locator('#terminal[data-stream="open"]').waitFor();
    await page.locator('#terminal .xterm').click();
    await page.keyboard.type('echo "hello from $(hostname -s)"; uname -sm');
    await page.keyboard.press('Enter');
    await page.locator('#terminal .xterm-rows', { hasText: 'hello from' }).waitFor();
    await page.locator('#terminal .xterm-rows', { hasText: 'Linux' }).waitFor();
    await shoot(page, 'terminal');
  } finally {
    await browser.close();
    await rig.close();
    await stopSharedHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
