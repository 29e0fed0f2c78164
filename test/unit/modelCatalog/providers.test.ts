import { expect } from 'chai';
import { createProviderClient, parseModelList, ProviderError } from '../../../src/services/modelCatalog/providers';
import { startFakeProvider, type FakeProvider } from '../../support/fakeProviders';

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

describe('model provider clients', () => {
  describe('parseModelList', () => {
    it('maps {data: [...]} entries, falling back to the id for a missing name', () => {
      expect(
        parseModelList({
          object: 'list',
          data: [
            { id: 'm-1', object: 'model', owned_by: 'x' },
            { id: 'm-2', name: 'Model Two', description: 'second', context_length: 1000 },
            { id: 'm-3', name: '', description: '' },
          ],
        }),
      ).to.deep.equal([
        { id: 'm-1', displayName: 'm-1' },
        { id: 'm-2', displayName: 'Model Two', description: 'second' },
        { id: 'm-3', displayName: 'm-3' },
      ]);
    });

    it('skips entries without a usable id and repeated ids', () => {
      const models = parseModelList({ data: [null, 'x', { name: 'no id' }, { id: 7 }, { id: 'ok' }, { id: 'ok', name: 'again' }] });
      expect(models).to.deep.equal([{ id: 'ok', displayName: 'ok' }]);
    });

    it('rejects answers of the wrong shape or with no usable model', () => {
      for (const body of [null, [], [{ id: 'a' }], { models: [{ id: 'a' }] }, { data: 'a' }, { data: {} }, { data: [] }, { data: [{ name: 'x' }] }]) {
        expect(() => parseModelList(body), JSON.stringify(body)).to.throw(ProviderError);
      }
    });
  });

  for (const source of ['source_a', 'source_b'] as const) {
    describe(`${source} client against a local server in its wire format`, () => {
      let fake: FakeProvider;
      const client = () => createProviderClient(source, { baseUrl: fake.url + '/', timeoutMs: 300 });
      beforeEach(async () => (fake = await startFakeProvider(source)));
      afterEach(() => fake.close());

      it('sends the key as a bearer token to the list path and reads the list', async () => {
        fake.behave({ kind: 'ok', models: [{ id: 'm-1', name: 'One', description: 'first' }, { id: 'm-2' }] });
        const models = await client().fetchModels('sk-abc');
        expect(models.map((m) => m.id)).to.deep.equal(['m-1', 'm-2']);
        expect(models[0]).to.deep.equal({ id: 'm-1', displayName: 'One', description: 'first' });
        expect(fake.requests).to.deep.equal([
          { method: 'GET', path: source === 'source_a' ? '/v1/models' : '/api/v1/models', authorization: 'Bearer sk-abc' },
        ]);
      });

      it('fails on a timeout, an error status, malformed JSON, a wrong shape or a redirect, without the key in the message', async () => {
        const cases = [
          { behaviour: { kind: 'slow', delayMs: 5000, models: [{ id: 'late' }] }, message: /within 300 ms/ },
          { behaviour: { kind: 'status', status: 500 }, message: /HTTP 500/ },
          { behaviour: { kind: 'status', status: 401 }, message: /HTTP 401/ },
          { behaviour: { kind: 'malformed' }, message: /not JSON/ },
          { behaviour: { kind: 'body', body: { models: [{ id: 'x' }] } }, message: /no "data" array/ },
          { behaviour: { kind: 'body', body: { data: [] } }, message: /no usable model/ },
          { behaviour: { kind: 'redirect', location: fake.url + '/elsewhere' }, message: /request failed/ },
        ] as const;
        for (const { behaviour, message } of cases) {
          fake.behave(behaviour);
          // The slow case ends at the client's 300 ms, not the server's 5 s: its message says so.
          const err = await failure(client().fetchModels('sk-secret-value'));
          expect(err, behaviour.kind).to.be.instanceOf(ProviderError);
          expect(err.message).to.match(message);
          expect(err.message).not.to.include('sk-secret-value');
        }
        expect(fake.requests.map((r) => r.path)).not.to.include('/elsewhere');
      });

      it('fails when nothing listens', async () => {
        const url = fake.url;
        await fake.close();
        const err = await failure(createProviderClient(source, { baseUrl: url, timeoutMs: 300 }).fetchModels('k'));
        expect(err).to.be.instanceOf(ProviderError);
        expect(err.message).to.match(/ECONNREFUSED/);
        fake = await startFakeProvider(source);
      });
    });
  }
});
