import { expect } from 'chai';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { modelGate, ModelRefusal } from '../../../src/gateway/modelGate';
import { createRequestScanner } from '../../../src/gateway/requestModel';

/** Fed whole, byte by byte and in 7-byte pieces: chunk edges must not change what is read. */
function scanAll(body: string, options: { limit?: number; stopAtModel?: boolean } = {}) {
  const bytes = Buffer.from(body);
  const results = [1, 7, bytes.length || 1].map((size) => {
    const scan = createRequestScanner(options);
    for (let i = 0; i < bytes.length; i += size) scan.feed(bytes.subarray(i, i + size));
    return { model: scan.model, modelKeys: scan.modelKeys, modelNotString: scan.modelNotString, fallbackModels: scan.fallbackModels, shape: scan.shape };
  });
  expect(results[1], body.slice(0, 80)).to.deep.equal(results[0]);
  expect(results[2], body.slice(0, 80)).to.deep.equal(results[0]);
  return results[0]!;
}

describe('gateway/requestModel: the top-level model of a streamed JSON body', () => {
  it('reads the top-level model wherever it stands, never a nested one', () => {
    expect(scanAll('{"model":"a"}')).to.include({ model: 'a', modelKeys: 1, shape: 'closed' });
    expect(scanAll('{"messages":[{"model":"nested","content":"x \\" y"}],"metadata":{"model":"n2"},"model":"top"}')).to.include({ model: 'top', modelKeys: 1 });
    expect(scanAll(' \n{ "stream" : true , "n": 12, "model" : "spaced" }')).to.include({ model: 'spaced' });
    expect(scanAll('{"mod\\u0065l":"escaped"}')).to.include({ model: 'escaped', modelKeys: 1 });
    expect(scanAll('{"model":"a\\"b\\\\c"}')).to.include({ model: 'a"b\\c' });
  });

  it('counts what a provider could act on instead: a second model, a fallback list, a model that is not a name', () => {
    expect(scanAll('{"model":"a","x":"y","model":"b"}')).to.include({ model: 'a', modelKeys: 2 });
    expect(scanAll('{"model":"a","models":["b"]}')).to.include({ fallbackModels: true });
    expect(scanAll('{"model":["a"]}')).to.include({ model: null, modelNotString: true });
    expect(scanAll('{"model":null}')).to.include({ model: null, modelNotString: true });
    expect(scanAll('{"model":12}')).to.include({ modelNotString: true });
    expect(scanAll(`{"model":"${'m'.repeat(5000)}"}`)).to.include({ model: null, modelNotString: true });
  });

  it('says when a body is not a JSON object, or has no model', () => {
    expect(scanAll('model=a')).to.include({ shape: 'not_object', model: null });
    expect(scanAll('[{"model":"a"}]')).to.include({ shape: 'not_object', model: null });
    expect(scanAll('\ufeff{"model":"a"}')).to.include({ shape: 'not_object' });
    expect(scanAll('{"messages":[]}')).to.include({ shape: 'closed', model: null, modelKeys: 0 });
    expect(scanAll('')).to.include({ shape: 'unknown' });
  });

  it('skips long strings without losing its place, and stops at the limit when asked', () => {
    const big = `{"messages":[{"content":"${'x'.repeat(200_000)}\\"${'z'.repeat(1000)}"}],"model":"late"}`;
    expect(scanAll(big)).to.include({ model: 'late' });
    expect(scanAll(big, { limit: 100_000 })).to.include({ model: null });
    expect(scanAll('{"model":"a","model":"b"}', { stopAtModel: true })).to.include({ model: 'a', modelKeys: 1 });
  });
});

describe("gateway/modelGate: the organization's models on a streamed body", () => {
  const allowed = new Set(['ok-1', 'ok-2']);
  const run = async (chunks: string[]) => {
    const gate = modelGate(allowed, '"ok-1", "ok-2"', 64);
    const source = Readable.from(chunks.map((c) => Buffer.from(c)));
    source.pipe(gate.stream);
    const refusal = await gate.decision;
    if (refusal) return { refusal, out: null };
    try {
      return { refusal: null, out: await text(gate.stream) };
    } catch (err) {
      return { refusal: err as Error, out: null };
    }
  };

  it('lets an allowed model through unchanged', async () => {
    const body = ['{"mo', 'del":"ok-1","messages":[{"model":"anything"}]}'];
    expect(await run(body)).to.deep.equal({ refusal: null, out: body.join('') });
  });

  it('refuses before anything flows: another model, none, a list, not JSON', async () => {
    for (const body of [['{"model":"other"}'], ['{"messages":[]}'], ['{"model":"ok-1","models":["other"]}'], ['model=ok-1'], [''], [`{"messages":"${'x'.repeat(100)}","model":"ok-1"}`]]) {
      const { refusal } = await run(body);
      expect(refusal, body.join('').slice(0, 40)).to.be.instanceOf(ModelRefusal);
    }
  });

  it('asks for the model first when it comes after the head, however the body is cut', async () => {
    const late = `{"messages":"${'x'.repeat(100)}","model":"ok-1"}`;
    for (const chunks of [[late], late.match(/.{1,10}/g)!]) {
      const { refusal } = await run(chunks);
      expect(refusal?.message).to.contain('within its first').and.contain('put it first');
    }
  });

  it('cuts the stream when a second model comes after the head went out', async () => {
    const { refusal, out } = await run(['{"model":"ok-1","messages":"', 'x'.repeat(200), '","model":"other"}']);
    expect(out).to.equal(null);
    expect(refusal).to.be.instanceOf(ModelRefusal);
    expect(refusal!.message).to.contain('more than once');
  });
});
