/**
 * The web console in headless Chromium (Debian's package, driven by playwright-core) against
 * the harness's API, and the fixtures its pages read. Shared by the console tests and
 * scripts/consoleScreenshots.ts.
 */
import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createLogger } from '../../../src/logger';
import { createDocker } from '../../../src/sandbox';
import { createTerminalManager, type TerminalManager } from '../../../src/terminals';
import { harness } from '../../support/harness';
import { createDockerOpenTty, startTtyContainer, type TtyContainer } from '../../support/ttyDocker';

/** scripts/setup.sh --for test installs it (apt-get install chromium) when absent. */
export const CHROMIUM = process.env.HANGAR_CHROMIUM || '/usr/bin/chromium';

/** `args`: more Chromium switches (e.g. `--host-resolver-rules` for a test's own domain names). */
export function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args });
}

/** Signs `page` (a tab of its own: its own sessionStorage) in with `key`, on the automations page. */
export async function signedIn(page: Page, key: string): Promise<Page> {
  await page.goto(`${harness().baseUrl}/console`);
  await page.fill('#api-key', key);
  await page.click('#login button[type=submit]');
  await page.locator('h1', { hasText: 'Automations' }).waitFor();
  return page;
}

/** A workspace row as the replica API would leave it; the pages only read it. */
export async function insertWorkspace(organizationId: string, name = `ws-${randomUUID().slice(0, 8)}`, status = 'active'): Promise<string> {
  const id = randomUUID();
  await harness().database.db('replicas').insert({
    id,
    organization_id: organizationId,
    name,
    status,
    coding_agent: 'agent_1',
    engine_secret_hash: 'not-used-by-the-console-tests',
  });
  return id;
}

/** A run of an automation that created `workspaceId`, as the automation workflow records it. */
export async function insertRun(automationId: string, organizationId: string, workspaceId: string | null, status = 'running'): Promise<string> {
  const id = randomUUID();
  await harness().database.db('automation_executions').insert({
    id,
    automation_id: automationId,
    organization_id: organizationId,
    workspace_id: workspaceId,
    status,
    trigger_payload: JSON.stringify({ source: 'console-test', ticket: 42 }),
    config: JSON.stringify({}),
  });
  return id;
}

export interface TerminalRig {
  /** Workspace id → container: a workspace listed here has a real TTY. */
  containers: Map<string, string>;
  container: TtyContainer;
  close(): Promise<void>;
}

/**
 * Terminals without a whole workspace: a terminal manager (as a worker runs it) on the
 * harness's bus, with TTYs into one plain sandbox container. The harness's API reaches it
 * over the bus like any worker.
 */
export async function startTerminalRig(): Promise<TerminalRig> {
  const h = harness();
  const docker: Docker = createDocker(process.env);
  const container = await startTtyContainer(docker);
  const containers = new Map<string, string>();
  let manager: TerminalManager | null = null;
  try {
    manager = createTerminalManager({
      bus: h.database.bus,
      repository: h.database.repos.terminalSessions,
      owner: `test-console-${randomUUID().slice(0, 8)}`,
      openTty: createDockerOpenTty(docker, (id) => containers.get(id)),
      logger: createLogger({ level: 'debug', write: (line) => h.logs.push(line) }).child({ suite: 'console' }),
    });
    await manager.start();
  } catch (err) {
    await container.remove();
    throw err;
  }
  return {
    containers,
    container,
    async close() {
      await manager?.close();
      await container.remove();
    },
  };
}
