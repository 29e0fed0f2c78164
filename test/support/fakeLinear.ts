/**
 * A local stand-in for Linear on 127.0.0.1, both directions of its wire format:
 *
 * - its GraphQL API at `POST /graphql` (`Authorization: <api key>` or `Bearer <OAuth token>`),
 *   answering the operations Hangar sends (`viewer`, `user(id)`, `issue(id)`,
 *   `commentCreate(input: {issueId, body})`) with only the fields each selection asks for, and
 *   Linear's `errors` shape on failure (./fakeLinearGraphql.ts);
 * - its webhooks: every change a test makes to a workspace (create or assign an issue, comment,
 *   move it to a state) is delivered to Hangar's receiver as Linear sends it — the envelope
 *   `{action, type, data, updatedFrom, actor, url, createdAt, organizationId, webhookTimestamp,
 *   webhookId}`, headers `Linear-Signature` (hex HMAC-SHA256 of the raw body with the webhook's
 *   signing secret), `Linear-Delivery` and `Linear-Event`. Comments the app posts through the
 *   API come back as deliveries too, as they do from Linear.
 */
import type { SecretBox } from '../../src/crypto/secretBox';
import { sealedField } from '../../src/crypto/sealedFields';
import type { SealedConnectionRow } from '../../src/db/connectionsRepository';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execute, type GraphqlError } from './fakeLinearGraphql';
import { createLinearWorkspace, type FakeLinearCall, type FakeLinearWorkspace, type LinearWorkspaceModel } from './fakeLinearWorkspace';

export type * from './fakeLinearWorkspace';

export interface FakeLinear {
  /** `http://127.0.0.1:PORT/graphql` (HANGAR_LINEAR_API_URL). */
  graphqlUrl: string;
  /** Where deliveries go (Hangar's `/v1/webhooks/linear`), set once the API listens; null: kept in `deliveries`, not sent. */
  webhookUrl: string | null;
  calls: FakeLinearCall[];
  createWorkspace(): FakeLinearWorkspace;
  /** The next `count` GraphQL requests answer `status` with an error of that code. */
  failNext(count: number, status: number, code: string): void;
  close(): Promise<void>;
}

export async function startFakeLinear(): Promise<FakeLinear> {
  const byToken = new Map<string, LinearWorkspaceModel>();
  const calls: FakeLinearCall[] = [];
  let failures: { remaining: number; status: number; code: string } | null = null;

  function createWorkspace(): FakeLinearWorkspace {
    const ws = createLinearWorkspace(() => fake.webhookUrl);
    byToken.set(`Bearer ${ws.accessToken}`, ws);
    byToken.set(ws.apiKey, ws);
    return ws;
  }

  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const fail = (status: number, error: GraphqlError) => send(status, { errors: [error], data: null });
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/graphql') return send(404, { errors: [{ message: 'Not found' }] });
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return fail(400, { message: 'Unexpected token in JSON', extensions: { code: 'BAD_REQUEST' } });
    }
    const authorization = req.headers.authorization;
    const ws = authorization ? byToken.get(authorization) : undefined;
    const variables = (body.variables && typeof body.variables === 'object' ? body.variables : {}) as Record<string, unknown>;
    calls.push({ operationName: typeof body.operationName === 'string' ? body.operationName : null, query: String(body.query ?? ''), variables, authorization, workspace: ws?.organizationId ?? null });
    if (failures && failures.remaining > 0) {
      failures.remaining--;
      return fail(failures.status, { message: `Injected failure ${failures.code}`, extensions: { code: failures.code } });
    }
    if (!ws) {
      return fail(400, {
        message: 'Authentication required, not authenticated',
        extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR', statusCode: 401, userError: true, userPresentableMessage: 'You need to authenticate to access this operation.' },
      });
    }
    const answer = execute(String(body.query ?? ''), variables, ws.resolvers);
    send(answer.errors ? 400 : 200, answer);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeLinear = {
    graphqlUrl: `http://127.0.0.1:${port}/graphql`,
    webhookUrl: null,
    calls,
    createWorkspace,
    failNext(count, status, code) {
      failures = { remaining: count, status, code };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

/** A connection row for a fake workspace, its secrets sealed with `box`, for unit tests that run without a database. */
export function linearConnectionRow(ws: FakeLinearWorkspace, box: SecretBox, organizationId: string): SealedConnectionRow {
  const id = 'c1';
  return {
    id,
    organization_id: organizationId,
    provider: 'linear',
    external_id: ws.organizationId,
    name: 'Linear',
    settings: { app_user_id: ws.app.id },
    secrets_sealed: box.seal(JSON.stringify({ access_token: ws.accessToken, webhook_secret: ws.webhookSecret }), sealedField('connections', 'secrets_sealed', id)),
    created_by: null,
    created_at: new Date(),
    updated_at: new Date(),
  };
}
