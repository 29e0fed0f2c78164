import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { expect } from 'chai';
import { createApp } from '../../../src/http/app';
import { defineRoute } from '../../../src/http/route';
import { object } from '../../../src/schemas/common';
import { DomainError } from '../../../src/domain/errors';
import { createLogger } from '../../../src/logger';
import type { IdentityService } from '../../../src/services/identity';

/** The request span middleware inside the real app, with spans kept in memory. */
describe('http: request spans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const logs: string[] = [];
  let server: Server;
  let url: string;

  before(async () => {
    // Registered as an entry point does, for the context manager and the traceparent propagator.
    provider.register();
    const routes = [
      defineRoute({
        method: 'get',
        path: '/v1/things/:id',
        operationId: 'getThing',
        summary: 'A thing',
        tag: 'test',
        auth: 'none',
        params: object({ id: { type: 'string' } }, ['id']),
        response: { status: 200, description: 'The thing' },
        errors: [404],
        handler: async ({ params }) => {
          if (params.id === 'broken') throw new Error('database on fire');
          if (params.id === 'missing') throw new DomainError('not_found', 'Thing not found', null);
          return { id: params.id };
        },
      }),
    ];
    const app = createApp({
      logger: createLogger({ write: (line) => logs.push(line) }),
      identity: {} as IdentityService,
      routes,
      bodyLimitBytes: 1024,
      tracer: provider.getTracer('test'),
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((listening) => server.once('listening', listening));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise((closed) => server.close(closed));
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });

  beforeEach(() => exporter.reset());

  it('names the span by method and route template, with status, request id and no path or query', async () => {
    const res = await fetch(`${url}/v1/things/t-42?token=query-secret`, { headers: { 'x-request-id': 'req-1' } });
    expect(res.status).to.equal(200);
    const [span] = exporter.getFinishedSpans();
    expect(span.name).to.equal('GET /v1/things/:id');
    expect(span.kind).to.equal(1); // SpanKind.SERVER
    expect(span.attributes).to.deep.equal({
      'http.request.method': 'GET',
      'http.route': '/v1/things/:id',
      'http.response.status_code': 200,
      'hangar.request_id': 'req-1',
    });
    expect(span.status.code).to.equal(0);
    expect(JSON.stringify(span.attributes)).not.to.include('t-42').and.not.to.include('query-secret');
  });

  it('continues the trace of an incoming traceparent and writes its id on the request log line', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    await fetch(`${url}/v1/things/t-1`, { headers: { traceparent: `00-${traceId}-${parent}-01`, 'x-request-id': 'req-2' } });
    const [span] = exporter.getFinishedSpans();
    expect(span.spanContext().traceId).to.equal(traceId);
    expect(span.parentSpanId).to.equal(parent);
    const line = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === 'req-2');
    expect(line).to.include({ msg: 'request', traceId });
  });

  it('starts a new trace without traceparent, and marks only 5xx answers as errors', async () => {
    expect((await fetch(`${url}/v1/things/missing`)).status).to.equal(404);
    expect((await fetch(`${url}/v1/things/broken`)).status).to.equal(500);
    const [missing, broken] = exporter.getFinishedSpans();
    expect(missing.parentSpanId).to.equal(undefined);
    expect(missing.attributes['http.response.status_code']).to.equal(404);
    expect(missing.status.code).to.equal(0);
    expect(broken.attributes['http.response.status_code']).to.equal(500);
    expect(broken.status.code).to.equal(2); // SpanStatusCode.ERROR
    expect(broken.spanContext().traceId).not.to.equal(missing.spanContext().traceId);
  });

  it('names a request no route matched by its method alone', async () => {
    expect((await fetch(`${url}/v1/nothing/here`, { method: 'POST' })).status).to.equal(404);
    const [span] = exporter.getFinishedSpans();
    expect(span.name).to.equal('POST');
    expect(span.attributes).not.to.have.property('http.route');
  });
});
