import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import { configRefusal } from './refusal';

/** The OTLP settings as loadConfig reads them from the standard OTEL_* variables. */
describe('tracing: settings', () => {
  const tracing = (env: Record<string, string>) => loadConfig(env).tracing;

  it('is off without an OTLP endpoint, and when the SDK or the traces exporter is switched off', () => {
    expect(tracing({})).to.equal(null);
    expect(tracing({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' })).to.equal(null);
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).to.equal(null);
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).to.equal(null);
  });

  it('appends /v1/traces to the base endpoint, and takes the traces endpoint as it is, first', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.endpoint).to.equal('http://collector:4318/v1/traces');
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/otlp/' })?.endpoint).to.equal('https://otel.example.com/otlp/v1/traces');
    expect(
      tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom' })?.endpoint,
    ).to.equal('http://traces:9999/custom');
  });

  it('reads the service name, headers (the traces ones first) and resource attributes', () => {
    const settings = tracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'hangar-eu',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-generic=1',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20abc , x-team=ops',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.namespace=hangar',
    });
    expect(settings).to.deep.equal({
      endpoint: 'http://collector:4318/v1/traces',
      serviceName: 'hangar-eu',
      headers: { authorization: 'Bearer abc', 'x-team': 'ops' },
      resourceAttributes: { 'deployment.environment': 'prod', 'service.namespace': 'hangar' },
    });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'x-generic=1' })?.headers).to.deep.equal({ 'x-generic': '1' });
  });

  it('refuses what it cannot honour, naming the variable and never quoting a header value', () => {
    const refusal = configRefusal;
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).to.match(/^OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
    expect(refusal({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' })).to.match(/^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http\(s\) URL/);
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).to.match(/^OTEL_EXPORTER_OTLP_PROTOCOL must be http\/json/);
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'zipkin' })).to.match(/^OTEL_TRACES_EXPORTER must be otlp or none/);
    const headers = refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'sk-live-123' });
    expect(headers).to.match(/^OTEL_EXPORTER_OTLP_HEADERS must be a list of key=value pairs/).and.not.to.include('sk-live-123');
  });
});
