/**
 * OpenTelemetry traces end to end. An API process and a worker process are started from their
 * real entry points (src/bin) with the harness's settings, a task queue of their own, and
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a local OTLP/HTTP receiver; nothing else turns
 * traces on. The harness's own in-process API and worker stay untraced.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { expect } from 'chai';
import { workflowBundle } from '../../../src/temporal/taskQueueWorkers';
import { startEntryProcess, stopEntryProcess, type EntryProcess } from '../../support/entryProcess';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlpReceiver';
import { until } from '../../support/wait';

/** Starts `src/bin/{entry}.ts` and resolves at its first log line with `msg === ready`. */
const startProcess = (entry: 'api' | 'worker', env: Record<string, string>, ready: string) => startEntryProcess(['--require', 'tsx/cjs', `src/bin/${entry}.ts`], { env, ready });
const stopped = stopEntryProcess;

const named = (spans: ReceivedSpan[], name: string) => spans.find((s) => s.name === name);

describe('observability: OpenTelemetry traces over OTLP', function () {
  this.timeout(300_000);
  const id = randomBytes(4).toString('hex');
  let receiver: OtlpReceiver;
  let env: Record<string, string>;
  let api: EntryProcess;
  let worker: EntryProcess;
  let apiUrl: string;

  before(async () => {
    receiver = await startOtlpReceiver();
    env = {
      ...harness().env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Export within a tenth of a second instead of five, so the tests wait little.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // A task queue of their own: the harness's untraced worker never takes these workflows.
      HANGAR_TASK_QUEUE: `hangar-traces-${id}`,
      HANGAR_SANDBOX_OWNER: `hangar-tests-traces-${id}`,
      HANGAR_SANDBOX_POOL_SIZE: '0',
      HANGAR_WORKER_METRICS_PORT: '0',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    [worker, api] = await Promise.all([startProcess('worker', env, 'worker running'), startProcess('api', env, 'api listening')]);
    apiUrl = `http://127.0.0.1:${api.line.port as number}`;
  });

  after(async () => {
    const codes = await Promise.all([api, worker].filter(Boolean).map((p) => stopped(p.child)));
    await receiver?.close();
    // A process that did not close cleanly would have lost its last spans.
    expect(codes).to.deep.equal(codes.map(() => 0));
  });

  it('makes a server span per request: route template, method, status, continuing the caller\'s traceparent, without the query', async () => {
    const org = await newOrg('traces');
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const answer = await fetch(`${apiUrl}/v1/automations?search=query-secret-${id}&limit=5`, {
      headers: { authorization: `Bearer ${org.org_api_key}`, traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(answer.status).to.equal(200);
    const requestId = answer.headers.get('x-request-id');

    const span = await until('the request span', async () => receiver.spans.find((s) => s.traceId === traceId));
    expect(span).to.include({ service: 'hangar-api', name: 'GET /v1/automations', kind: 2, parentSpanId: parentId, statusCode: 0 });
    expect(span.attributes).to.include({
      'http.request.method': 'GET',
      'http.route': '/v1/automations',
      'http.response.status_code': 200,
      'hangar.request_id': requestId,
      'hangar.organization_id': org.organization_id,
    });

    // A request that matches no route is named by its method alone and ends 404.
    const missing = await fetch(`${apiUrl}/v1/no-such-route/${id}`, { headers: { traceparent: `00-${traceId}-${parentId}-01` } });
    expect(missing.status).to.equal(404);
    const unmatched = await until('the unmatched request span', async () => receiver.spans.find((s) => s.traceId === traceId && s.name === 'GET'));
    expect(unmatched.attributes).to.include({ 'http.response.status_code': 404 }).and.not.to.have.property('http.route');

    // Neither the query, the path nor the key is exported.
    const exported = receiver.bodies.join('\n');
    expect(exported).not.to.include(`query-secret-${id}`);
    expect(exported).not.to.include(`no-such-route/${id}`);
    expect(exported).not.to.include(org.org_api_key);
    // The request's log line names the trace, for going from a log line to its trace.
    expect(api.output()).to.match(new RegExp(`"requestId":"${requestId}"[^\\n]*"traceId":"${traceId}"`));
  });

  it('follows one API call through the Temporal client, the workflow and its activities in one trace', async () => {
    const org = await newOrg('traces');
    const key = org.org_api_key;
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const environment = (await (await call('POST', '/v1/environments', { name: 'traces' })).json()) as { environment: { id: string } };
    const created = await call('POST', '/v1/automations', { name: 'Traced', prompt: 'Nothing to do.', environment_id: environment.environment.id, triggers: [{ type: 'custom', config: {} }] });
    expect(created.status).to.equal(201);
    const automation = ((await created.json()) as { automation: { id: string } }).automation;

    // DELETE starts the automation's cleanup workflow: a short workflow with three activities.
    const deleted = await call('DELETE', `/v1/automations/${automation.id}`);
    expect(deleted.status).to.equal(200);
    const request = await until('the DELETE request span', async () => receiver.spans.find((s) => s.name === 'DELETE /v1/automations/:id' && s.attributes['hangar.organization_id'] === org.organization_id));
    const trace = () => receiver.spans.filter((s) => s.traceId === request.traceId);
    const names = ['StartWorkflow:automationCleanupWorkflow', 'RunWorkflow:automationCleanupWorkflow', 'StartActivity:confirmAutomationDeleted', 'RunActivity:confirmAutomationDeleted', 'RunActivity:deleteAutomationHistory'];
    await until('the workflow and activity spans', async () => names.every((name) => named(trace(), name)), 60_000, 200);

    const spans = trace();
    const start = named(spans, 'StartWorkflow:automationCleanupWorkflow')!;
    const run = named(spans, 'RunWorkflow:automationCleanupWorkflow')!;
    const scheduled = named(spans, 'StartActivity:confirmAutomationDeleted')!;
    const activity = named(spans, 'RunActivity:confirmAutomationDeleted')!;
    // request → client start (API) → workflow run (worker, from the sandbox) → activity scheduled → activity run.
    expect(start).to.include({ service: 'hangar-api', parentSpanId: request.spanId });
    expect(run).to.include({ service: 'hangar-worker', parentSpanId: start.spanId });
    expect(run.attributes).to.include({ workflowId: `cleanup/automation/${automation.id}` });
    expect(scheduled).to.include({ service: 'hangar-worker', parentSpanId: run.spanId });
    expect(activity).to.include({ service: 'hangar-worker', parentSpanId: scheduled.spanId });
    // Each span of the trace hangs from another of it, up to the request.
    const ids = new Set(spans.map((s) => s.spanId));
    for (const span of spans) if (span !== request) expect(ids.has(span.parentSpanId), `${span.name}'s parent`).to.equal(true);

    // Their histories replay with tracing on (a restarted worker) and off (tracing turned off):
    // the schedule loop the create started, and the cleanup that stopped it.
    const connection = await Connection.connect({ address: harness().temporal.address });
    try {
      const client = new Client({ connection, namespace: harness().config.temporalNamespace });
      for (const workflowId of [`automation/${automation.id}`, `cleanup/automation/${automation.id}`]) {
        const history = await client.workflow.getHandle(workflowId).fetchHistory();
        for (const traced of [true, false]) {
          await Worker.runReplayHistory({ workflowBundle: await workflowBundle({ traced }) }, history, workflowId);
        }
      }
    } finally {
      await connection.close();
    }
  });

  it('exports what a stopping process still holds', async () => {
    // Its batch would wait ten minutes: only the flush at shutdown can send this span.
    const late = await startProcess('api', { ...env, OTEL_BSP_SCHEDULE_DELAY: '600000', OTEL_SERVICE_NAME: `hangar-api-late-${id}` }, 'api listening');
    const answer = await fetch(`http://127.0.0.1:${late.line.port as number}/openapi.json`);
    expect(answer.status).to.equal(200);
    expect(await stopped(late.child)).to.equal(0);
    expect(receiver.spans.filter((s) => s.service === `hangar-api-late-${id}`).map((s) => s.name)).to.deep.equal(['GET /openapi.json']);
  });
});
