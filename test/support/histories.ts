/**
 * Records workflow histories from a test run for the replay tests
 * (`test/unit/workflows/replay.test.ts`): `HANGAR_RECORD_HISTORIES=1 npx mocha` keeps, for each
 * workflow type, the closed executions with the longest histories (they exercise the most
 * paths) in `test/fixtures/histories/<type>.<n>.json`. Record again when a workflow changes on
 * purpose, with a `patched()` guard for the executions already running.
 *
 * A file holds the workflow id (replay needs it: workflows read their own id) and the history
 * as base64 protobuf. Not the SDK's JSON form: its `historyToJSON`/`historyFromJSON` fail here
 * ("type must be a Type") because npm installs protobufjs twice under `@temporalio`.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

export interface RecordedHistory {
  workflowType: string;
  workflowId: string;
  /** `temporal.api.history.v1.History`, protobuf-encoded, base64. */
  history: string;
}

export const decodeHistory = (recorded: RecordedHistory) => temporal.api.history.v1.History.decode(Buffer.from(recorded.history, 'base64'));

export const HISTORIES_DIR = resolve(__dirname, '../fixtures/histories');

export const WORKFLOW_TYPES = [
  'workspaceWorkflow',
  'warmPoolWorkflow',
  'hookTestWorkflow',
  'automationRunWorkflow',
  'automationScheduleWorkflow',
  'debounceWindowWorkflow',
  'automationCleanupWorkflow',
  'canvasWorkflow',
  'threadEventWorkflow',
];

const PER_TYPE = 3;

export async function recordHistories(address: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection });
    await mkdir(HISTORIES_DIR, { recursive: true });
    // The paths the Docker-free workflow tests record (`*.path-*.json`) are theirs to replace.
    for (const file of await readdir(HISTORIES_DIR)) if (/^[A-Za-z]+\.\d+\.json$/.test(file)) await rm(join(HISTORIES_DIR, file));
    for (const type of WORKFLOW_TYPES) {
      const closed: Array<{ workflowId: string; runId: string; length: number }> = [];
      for await (const info of client.workflow.list({ query: `WorkflowType = '${type}' AND ExecutionStatus != 'Running'` })) {
        closed.push({ workflowId: info.workflowId, runId: info.runId, length: info.historyLength });
      }
      closed.sort((a, b) => b.length - a.length);
      let n = 0;
      for (const { workflowId, runId } of closed.slice(0, PER_TYPE)) {
        const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
        await writeHistory(`${type}.${++n}.json`, { workflowType: type, workflowId, history });
      }
    }
  } finally {
    await connection.close();
  }
}

/** Writes one history into the replay fixtures. */
export async function writeHistory(file: string, recorded: { workflowType: string; workflowId: string; history: temporal.api.history.v1.IHistory }): Promise<void> {
  const encoded = Buffer.from(temporal.api.history.v1.History.encode(recorded.history).finish()).toString('base64');
  const entry: RecordedHistory = { workflowType: recorded.workflowType, workflowId: recorded.workflowId, history: encoded };
  await mkdir(HISTORIES_DIR, { recursive: true });
  await writeFile(join(HISTORIES_DIR, file), `${JSON.stringify(entry, null, 2)}\n`);
}

/**
 * Writes one workflow's history, as it is now, into the replay fixtures as `{type}.path-{path}.1.json`:
 * an integration test that reaches a path the longest histories may miss records it (with
 * `HANGAR_RECORD_HISTORIES=1`).
 */
export async function recordPath(address: string, workflowType: string, workflowId: string, path: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const history = await new Client({ connection }).workflow.getHandle(workflowId).fetchHistory();
    await writeHistory(`${workflowType}.path-${path}.1.json`, { workflowType, workflowId, history });
  } finally {
    await connection.close();
  }
}
