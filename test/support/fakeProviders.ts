/**
 * Local stand-ins for the two model-list APIs the catalog calls, speaking their wire formats
 * on 127.0.0.1: source_a's OpenAI-compatible `GET /v1/models` and source_b's gateway
 * `GET /api/v1/models`. A test sets how the next requests are answered: a list, a status, a
 * delay past the client's timeout, malformed JSON or a body of the wrong shape, and can hold
 * answers behind a gate to observe a fetch in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeModel {
  id: string;
  name?: string;
  description?: string;
}

export type FakeBehaviour =
  | { kind: 'ok'; models: readonly FakeModel[] }
  | { kind: 'status'; status: number }
  | { kind: 'slow'; delayMs: number; models: readonly FakeModel[] }
  | { kind: 'malformed' }
  | { kind: 'body'; body: unknown }
  | { kind: 'redirect'; location: string };

export interface FakeProvider {
  url: string;
  /** Every request received, in order; the Authorization header as sent. */
  requests: Array<{ method: string; path: string; authorization: string | undefined }>;
  behave(behaviour: FakeBehaviour): void;
  /** Holds answers until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

const PATHS = { source_a: '/v1/models', source_b: '/api/v1/models' } as const;

function wire(source: keyof typeof PATHS, models: readonly FakeModel[]) {
  if (source === 'source_a') {
    // OpenAI-compatible: id, object, created, owned_by; name and description when the provider has them.
    return { object: 'list', data: models.map((m) => ({ object: 'model', created: 1_750_000_000, owned_by: 'provider', ...m })) };
  }
  return {
    data: models.map((m) => ({
      id: m.id,
      canonical_slug: m.id,
      name: m.name ?? m.id,
      created: 1_750_000_000,
      description: m.description ?? '',
      context_length: 131072,
      architecture: { modality: 'text->text', input_modalities: ['text'], output_modalities: ['text'] },
      pricing: { prompt: '0.0000005', completion: '0.000002' },
      top_provider: { context_length: 131072, max_completion_tokens: 32768, is_moderated: false },
      supported_parameters: ['tools', 'temperature'],
    })),
  };
}

export async function startFakeProvider(source: keyof typeof PATHS, initial: FakeBehaviour = { kind: 'ok', models: [] }): Promise<FakeProvider> {
  let behaviour = initial;
  let gate: Promise<void> | null = null;
  const requests: FakeProvider['requests'] = [];

  const answer = (res: ServerResponse, status: number, body: string) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const authorization = req.headers.authorization;
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization });
    const current = behaviour;
    const waitFor = gate ?? Promise.resolve();
    void waitFor.then(() => {
      if (req.url !== PATHS[source]) return answer(res, 404, JSON.stringify({ error: { message: 'not found' } }));
      // The real APIs reject a missing key; the echo lets tests check the key never reaches a log.
      if (!authorization?.startsWith('Bearer ')) return answer(res, 401, JSON.stringify({ error: { message: 'no key' } }));
      switch (current.kind) {
        case 'ok':
          return answer(res, 200, JSON.stringify(wire(source, current.models)));
        case 'status':
          return answer(res, current.status, JSON.stringify({ error: { message: `failed for ${authorization}` } }));
        case 'slow': {
          const timer = setTimeout(() => answer(res, 200, JSON.stringify(wire(source, current.models))), current.delayMs);
          res.on('close', () => clearTimeout(timer));
          return;
        }
        case 'malformed':
          return answer(res, 200, '{"data": [{"id": "cut-off"');
        case 'body':
          return answer(res, 200, JSON.stringify(current.body));
        case 'redirect':
          res.writeHead(302, { location: current.location });
          res.end();
          return;
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    behave(next) {
      behaviour = next;
    },
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
