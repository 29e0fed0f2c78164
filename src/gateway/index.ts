/**
 * Hangar's AI gateway: the one way a workspace's coding agents reach their providers. A CLI
 * holds a placeholder key (`placeholder.ts`); the gateway checks it against the replica's
 * sealed engine secret, resolves the replica owner's credential for the agent (personal
 * first, then the organization's), swaps it in, and streams the request to the agent's
 * upstream (`HANGAR_AGENT_N_BASE_URL`) and the answer back as it arrives. Each forwarded
 * request leaves one usage row, written when the answer ends, however it ends.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { finished, pipeline, type Readable, type Transform } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { AGENT_IDS, type AgentId } from '../agents/catalog';
import { missingCredentialMessage, type CredentialResolver } from '../agents/credentials';
import type { Config } from '../config';
import { sealedField } from '../crypto/sealedFields';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { ReplicaRow } from '../db/replicasRepository';
import type { Logger } from '../logger';
import { aiGatewayTokens } from '../metrics';
import { clientResponseHeaders, presentedKey, upstreamRequestHeaders, type HeaderMap } from './headers';
import { gatewayKeyReplica, verifyGatewayKey } from '../domain/gatewayKey';
import { AGENT_WIRE, credentialHeaders, errorBody, type GatewayErrorKind, type Wire } from './providers';
import { modelGate } from './modelGate';
import { modelSniffer } from './requestModel';
import { usageObserver, type TokenUsage } from './responseUsage';
import { upstreamTarget } from './upstreamPath';

export { gatewayKey, verifyGatewayKey } from '../domain/gatewayKey';

/**
 * Upstream silence the gateway tolerates before it gives a request up. The client's own
 * timeout governs (agent SDKs wait up to 10 minutes); this only bounds a socket whose client
 * went quiet without closing.
 */
export const UPSTREAM_SILENCE_LIMIT_MS = 30 * 60_000;
/** Recorded when the client left before the answer ended (nginx's "client closed request"). */
export const CLIENT_CLOSED_STATUS = 499;

export interface AiGatewayDeps {
  repos: Pick<Repositories, 'replicas' | 'aiGatewayUsage'>;
  /** The models an organization allows for an agent; null: any (`ModelCatalogService.allowedModels`). */
  models: { allowedModels(organizationId: string, agent: AgentId): Promise<ReadonlySet<string> | null> };
  secretBox: SecretBox;
  credentials: Pick<CredentialResolver, 'resolveCredential'>;
  config: Pick<Config, 'agentBaseUrls'>;
  logger: Logger;
}

export interface GatewayRequest {
  /** The path segment after `/v1/ai-gateway/`, as sent. */
  agent: string;
  method: string;
  /** Everything after `/v1/ai-gateway/<agent>`: the provider's path and query string, as sent. */
  target: string;
  headers: IncomingHttpHeaders;
  /** The request body, streamed upstream untouched; null for none. */
  body: Readable | null;
  /** Aborts when the client goes away: the upstream request is cancelled with it. */
  signal: AbortSignal;
}

export interface GatewayAnswer {
  status: number;
  headers: HeaderMap;
  /** The provider's answer as it arrives, or a whole error body of the gateway's own. */
  body: Readable | Buffer;
  /** The workspace whose key this request proved to hold, whatever the answer (for the rate limiter). */
  verifiedReplicaId?: string;
}

const isAgentId = (value: string): value is AgentId => (AGENT_IDS as readonly string[]).includes(value);

function answer(wire: Wire, status: number, kind: GatewayErrorKind, message: string, detail?: { code?: string; param?: string }): GatewayAnswer {
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(errorBody(wire, kind, message, detail))) };
}

/** An organization's models as a refusal names them: a few, and where to see the rest. */
function describeModels(allowed: ReadonlySet<string>): string {
  const ids = [...allowed];
  const shown = ids.slice(0, 5).map((id) => `"${id}"`).join(', ');
  return ids.length > 5 ? `${shown} and ${ids.length - 5} more (GET /v1/ai-gateway/enabled-models)` : shown;
}

/**
 * Hangar's own Error body, for refusals of the request's form that no agent CLI would cause
 * (like the rate limiter's 429): not dressed as the provider's answer.
 */
function hangarError(status: number, error: string, details: string): GatewayAnswer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(JSON.stringify({ error, details })) };
}

/** What a failed upstream call was, for the client and the log: a code, never a URL with credentials. */
function failureReason(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; name?: unknown };
  const code = e.cause?.code ?? e.code;
  return typeof code === 'string' ? code : typeof e.name === 'string' ? e.name : 'error';
}

/**
 * The client's body as it goes upstream, through `through`. The link runs one way: the client
 * failing or leaving mid-body ends `through` with an error (the upstream request is cut before
 * its body is complete), while undici destroying `through` (it does when the connection fails)
 * only unhooks it, so the client's request and socket stay open for the gateway's answer.
 */
function forwardedBody(incoming: Readable, through: Transform): Transform {
  incoming.pipe(through);
  const stopWatching = finished(incoming, { writable: false }, (err) => {
    if (err && !through.destroyed) through.destroy(err);
  });
  through.once('close', () => {
    stopWatching();
    incoming.unpipe(through);
    // Whatever the client still sends is read and dropped, as Node does for a request answered
    // before its body: a body left unread would stall the connection until it is reset.
    if (!incoming.readableEnded) incoming.resume();
  });
  return through;
}

export function createAiGateway(deps: AiGatewayDeps) {
  const { repos, secretBox, credentials, config, models } = deps;
  const logger = deps.logger;
  const dispatcher = new Agent({ headersTimeout: UPSTREAM_SILENCE_LIMIT_MS, bodyTimeout: UPSTREAM_SILENCE_LIMIT_MS });
  const pendingWrites = new Set<Promise<void>>();

  /** The live replica whose gateway key this is, or null. */
  async function authenticate(key: string | null): Promise<ReplicaRow | null> {
    const replicaId = key ? gatewayKeyReplica(key) : null;
    if (!key || !replicaId) return null;
    const row = await repos.replicas.find(replicaId);
    if (!row || row.deleted_at !== null || !row.engine_secret_sealed) return null;
    let engineSecret: string;
    try {
      engineSecret = secretBox.open(row.engine_secret_sealed, sealedField('replicas', 'engine_secret_sealed', row.id));
    } catch (err) {
      logger.error('cannot open a replica engine secret', { replicaId, err: err as Error });
      return null;
    }
    return verifyGatewayKey(key, row.id, engineSecret) ? row : null;
  }

  function record(row: { replica: ReplicaRow; agent: AgentId; model: string | null; status: number; usage: TokenUsage; startedAt: Date; started: number }) {
    if (row.usage.inputTokens) aiGatewayTokens.inc({ agent: row.agent, direction: 'input' }, row.usage.inputTokens);
    if (row.usage.outputTokens) aiGatewayTokens.inc({ agent: row.agent, direction: 'output' }, row.usage.outputTokens);
    const write = repos.aiGatewayUsage
      .record({
        organization_id: row.replica.organization_id,
        replica_id: row.replica.id,
        user_id: row.replica.user_id,
        agent: row.agent,
        model: row.model,
        status: row.status,
        input_tokens: row.usage.inputTokens,
        output_tokens: row.usage.outputTokens,
        duration_ms: Math.round(performance.now() - row.started),
        started_at: row.startedAt,
      })
      .catch((err) => logger.error('recording AI gateway usage failed', { replicaId: row.replica.id, agent: row.agent, status: row.status, err: err as Error }));
    pendingWrites.add(write);
    void write.finally(() => pendingWrites.delete(write));
  }

  async function proxy(req: GatewayRequest, agent: AgentId, wire: Wire, verified: { replicaId?: string }): Promise<GatewayAnswer> {
    const startedAt = new Date();
    const started = performance.now();
    // Decided from the request line alone, before any lookup; nothing is forwarded.
    const target = upstreamTarget(config.agentBaseUrls[agent], req.target);
    if (!target.url) return hangarError(400, 'Invalid path', `${target.refusal}; the gateway forwards only paths under the agent's base URL`);
    const url = target.url;
    const replica = await authenticate(presentedKey(req.headers));
    if (!replica) {
      return answer(wire, 401, 'authentication', `Invalid AI gateway key for ${agent}: send the placeholder key Hangar configured for this workspace (in x-api-key or Authorization: Bearer).`);
    }
    verified.replicaId = replica.id;
    // The key is the workspace's, for whichever route it is sent to: the server decides which
    // agents that workspace may spend a credential on.
    if (!(await repos.replicas.usesAgent(replica, agent))) {
      return answer(
        wire,
        403,
        'permission',
        `This workspace does not use ${agent} (its agent is ${replica.coding_agent}): its AI gateway key opens only the agents of its own chats and messages.`,
        { code: 'agent_not_in_workspace' },
      );
    }
    const [credential, allowed] = await Promise.all([
      credentials.resolveCredential({ organizationId: replica.organization_id, userId: replica.user_id, agent }),
      models.allowedModels(replica.organization_id, agent),
    ]);
    if (!credential) {
      return answer(wire, 401, 'authentication', missingCredentialMessage(agent));
    }

    const contentType = String(req.headers['content-type'] ?? '');
    const base = { replica, agent, startedAt, started };
    // With a model list, the body's model is checked before anything goes upstream; without
    // one, it is only read for the usage row.
    const gate = allowed && req.body ? modelGate(allowed, describeModels(allowed)) : null;
    const sniffer = gate ? null : modelSniffer(contentType === '' || /json/i.test(contentType));
    const model = () => gate?.model() ?? sniffer?.model() ?? null;
    const body = req.body ? forwardedBody(req.body, (gate ?? sniffer)!.stream) : undefined;
    const refused = gate ? await gate.decision : null;
    if (refused) return answer(wire, 403, 'permission', refused.message, { code: 'model_not_enabled', param: 'model' });
    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await request(url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: { ...upstreamRequestHeaders(req.headers, body !== undefined), ...credentialHeaders(wire, credential) },
        body,
        signal: req.signal,
        dispatcher,
      });
    } catch (err) {
      // Only the client's own signal says it left: undici destroys the body stream it was
      // given when the upstream connection fails, so that stream's state proves nothing.
      const clientLeft = req.signal.aborted;
      // Cut mid-body by the model check: the provider got a body it cannot complete.
      const cut = clientLeft ? null : gate?.refusal();
      record({ ...base, model: model(), status: clientLeft ? CLIENT_CLOSED_STATUS : cut ? 403 : 502, usage: { inputTokens: null, outputTokens: null } });
      if (clientLeft) return answer(wire, CLIENT_CLOSED_STATUS, 'invalid_request', 'The client closed the request.');
      if (cut) return answer(wire, 403, 'permission', cut.message, { code: 'model_not_enabled', param: 'model' });
      const reason = failureReason(err);
      logger.warn('AI gateway upstream unreachable', { agent, upstream: url.host, reason, replicaId: replica.id });
      return answer(wire, 502, 'upstream', `The AI gateway could not reach the ${agent} provider at ${url.host} (${reason}).`);
    }

    const observer = usageObserver(String(upstream.headers['content-type'] ?? ''), upstream.headers['content-encoding'] as string | undefined);
    pipeline(upstream.body, observer.stream, () => undefined);
    finished(observer.stream, (err) => {
      const status = !err ? upstream.statusCode : req.signal.aborted ? CLIENT_CLOSED_STATUS : 502;
      if (err && !req.signal.aborted) logger.warn('AI gateway upstream answer broke off', { agent, upstream: url.host, reason: failureReason(err), replicaId: replica.id });
      record({ ...base, model: model(), status, usage: observer.usage() });
    });
    return { status: upstream.statusCode, headers: clientResponseHeaders(upstream.headers), body: observer.stream };
  }

  return {
    /** Forwards one request; every answer (errors included) is in the agent's provider's shape. */
    async forward(req: GatewayRequest): Promise<GatewayAnswer> {
      if (!isAgentId(req.agent)) {
        return answer('openai', 404, 'not_found', `Unknown agent "${req.agent.slice(0, 64)}": the AI gateway serves ${AGENT_IDS.join(', ')} at /v1/ai-gateway/<agent>/…`);
      }
      const wire = AGENT_WIRE[req.agent];
      const verified: { replicaId?: string } = {};
      try {
        return { ...(await proxy(req, req.agent, wire, verified)), verifiedReplicaId: verified.replicaId };
      } catch (err) {
        logger.error('AI gateway request failed', { agent: req.agent, err: err as Error });
        return { ...answer(wire, 500, 'internal', 'The AI gateway failed to handle the request.'), verifiedReplicaId: verified.replicaId };
      }
    },

    /**
     * Call after the HTTP server stopped (its clients' departure has cancelled every upstream
     * request): drops the idle upstream connections and waits for the last usage rows.
     */
    async close(): Promise<void> {
      await dispatcher.destroy();
      await Promise.allSettled([...pendingWrites]);
    },
  };
}

export type AiGateway = ReturnType<typeof createAiGateway>;
