/**
 * Request limits, checked per route before the body is read or the caller authenticated. Each
 * request takes a token from one bucket (src/limits):
 * - an API key's, found by the key's hash (no lookup; only the key's holder can name it);
 * - a workspace's, for calls with its engine secret or AI gateway key, but only once this
 *   process has seen that very credential prove itself (many workspaces may share an address:
 *   a NAT, a worker host). The workspace's id is in the request for anyone to write, so a
 *   credential not yet proved never chooses its bucket: forged keys naming a workspace would
 *   otherwise spend the workspace's own tokens;
 * - otherwise its client address's: no key, a workspace credential not proved yet, webhooks and
 *   the other unauthenticated routes.
 * Every failed authentication (any 401 of a request that proved nothing) then costs its address
 * `failedAuthCost` tokens in all, so guessing keys runs dry long before webhooks from the same
 * address would. While an address's bucket is empty, a credential this process has not verified
 * yet is refused without a lookup, so a flood of made-up keys reaches neither PostgreSQL nor Redis.
 *
 * A refusal is 429 with the Error body, `Retry-After` (seconds) and the fields of
 * draft-ietf-httpapi-ratelimit-headers-10: `RateLimit-Policy: "key";q=1000;w=10` (the burst, and
 * the seconds an empty bucket takes to fill) and `RateLimit: "key";r=0;t=1` (whole tokens left,
 * seconds until the next). Allowed requests carry the same two fields. Health probes are never
 * limited: an orchestrator that cannot reach them would restart a healthy process.
 */
import type { Context, Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import { hashApiKey } from '../crypto/apiKeys';
import type { RateLimitSettings } from '../config';
import { gatewayKeyReplica, isGatewayKey } from '../domain/gatewayKey';
import { isDomainError, rateLimited } from '../domain/errors';
import { clientAddress, type BucketPolicy, type BucketStore, type Verdict } from '../limits';
import type { IdentityService } from '../services/identity';
import type { Route } from './route';
import { bearerKeyHash, bearerSecret } from './bearer';
import { verifiedWorkspaceOf } from './verifiedWorkspace';

type PolicyName = 'key' | 'workspace' | 'ip';

export interface RateLimiter {
  /** The route's limit, to run before anything else the route does. */
  forRoute(route: Route): Middleware;
  close(): Promise<void>;
}

const PROBES = new Set(['health', 'ready']);

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Proved workspace credentials this process keeps (as hashes), and for how long without use. */
const VERIFIED_WORKSPACE_CREDENTIALS = 100_000;
const VERIFIED_WORKSPACE_TTL_MS = 60 * 60_000;

type Credential =
  | { policy: 'key'; bucket: string; keyHash: string }
  /** `proof`: a hash of the credential (never the secret), the same for the same credential. */
  | { policy: 'workspace'; workspaceId: string; proof: string };

function engineSecretOf(ctx: Context): Credential | null {
  const workspaceId = ctx.get('x-workspace-id').toLowerCase();
  const secretHash = bearerKeyHash(ctx);
  return workspaceId && secretHash ? { policy: 'workspace', workspaceId, proof: `engine:${workspaceId}:${secretHash}` } : null;
}

/** The credential a request presents to this route, as the route will check it; null for none. */
function credentialOf(route: Route, ctx: Context): Credential | null {
  if (route.auth === 'none') {
    if (route.workspaceCredential === 'engineSecret') return engineSecretOf(ctx);
    if (route.workspaceCredential === 'gatewayKey') {
      const key = [ctx.get('x-api-key').trim(), bearerSecret(ctx.get('authorization')) ?? ''].find(isGatewayKey);
      const workspaceId = key ? gatewayKeyReplica(key) : null;
      return key && workspaceId ? { policy: 'workspace', workspaceId, proof: `gateway:${hashApiKey(key)}` } : null;
    }
    return null;
  }
  // The same choice as the app's: an engine secret when the route takes one and X-Workspace-Id is sent.
  if (route.auth === 'apiKeyOrEngine' && ctx.get('x-workspace-id')) return engineSecretOf(ctx);
  const keyHash = bearerKeyHash(ctx);
  if (!keyHash) return null;
  return { policy: 'key', bucket: `key:${keyHash.slice(0, 32)}`, keyHash };
}

export function createRateLimiter(deps: { identity: Pick<IdentityService, 'holdsKey'>; store: BucketStore; settings: RateLimitSettings }): RateLimiter {
  const { identity, store, settings } = deps;
  // A workspace is limited like an API key.
  const policies: Record<PolicyName, BucketPolicy> = { key: settings.key, workspace: settings.key, ip: settings.ip };
  const field = (name: PolicyName) => `"${name}";q=${policies[name].burst};w=${seconds((policies[name].burst * 1000) / policies[name].perSecond)}`;
  const fields: Record<PolicyName, string> = { key: field('key'), workspace: field('workspace'), ip: field('ip') };
  const explain: Record<PolicyName, string> = {
    key: `an API key may send ${settings.key.burst} requests at once and ${settings.key.perSecond} a second`,
    workspace: `a workspace may send ${settings.key.burst} requests at once and ${settings.key.perSecond} a second`,
    ip: `an address may send ${settings.ip.burst} requests without a verified credential at once and ${settings.ip.perSecond} a second; a failed authentication counts as ${settings.failedAuthCost}`,
  };

  /** Sets the RateLimit fields; a refusal becomes the 429. */
  function report(ctx: Context, name: PolicyName, verdict: Verdict): void {
    ctx.set('RateLimit-Policy', fields[name]);
    const wait = verdict.allowed ? verdict.nextTokenMs : verdict.retryAfterMs;
    ctx.set('RateLimit', `"${name}";r=${verdict.remaining}${wait > 0 ? `;t=${seconds(wait)}` : ''}`);
    if (verdict.allowed) return;
    ctx.set('Retry-After', String(seconds(verdict.retryAfterMs)));
    throw rateLimited('Too many requests', `${explain[name]}; retry in ${seconds(verdict.retryAfterMs)} s`);
  }

  /** Workspace credentials that proved themselves in this process: proof hash → workspace id. */
  const provedWorkspaces = new LRUCache<string, string>({ max: VERIFIED_WORKSPACE_CREDENTIALS, ttl: VERIFIED_WORKSPACE_TTL_MS, updateAgeOnGet: true });

  return {
    forRoute(route) {
      if (PROBES.has(route.operationId)) return (_ctx, next) => next();
      return async (ctx, next) => {
        const address = `ip:${clientAddress(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for'], settings.proxyHops)}`;
        const credential = credentialOf(route, ctx);
        const proved = credential?.policy === 'workspace' && provedWorkspaces.get(credential.proof) === credential.workspaceId;
        let owed: number;
        if (credential?.policy === 'key') {
          const verified = identity.holdsKey(credential.keyHash);
          const emptyMs = verified ? 0 : store.emptyFor(address, settings.ip);
          if (emptyMs > 0) report(ctx, 'ip', { allowed: false, remaining: 0, retryAfterMs: emptyMs, nextTokenMs: emptyMs });
          report(ctx, 'key', await store.take(credential.bucket, policies.key, 1));
          owed = settings.failedAuthCost;
        } else if (proved) {
          report(ctx, 'workspace', await store.take(`workspace:${credential.workspaceId}`, policies.workspace, 1));
          owed = settings.failedAuthCost;
        } else {
          // Nothing proved yet: the address pays, as anyone does before showing who they are.
          report(ctx, 'ip', await store.take(address, settings.ip, 1));
          owed = settings.failedAuthCost - 1;
        }
        let failed = false;
        try {
          await next();
          failed = ctx.status === 401;
        } catch (err) {
          failed = isDomainError(err, 'unauthenticated');
          throw err;
        } finally {
          if (credential?.policy === 'workspace') {
            if (verifiedWorkspaceOf(ctx) === credential.workspaceId) {
              provedWorkspaces.set(credential.proof, credential.workspaceId);
              // A 401 after the workspace proved itself (no provider credential, the provider's
              // own refusal) is no guess at a key.
              failed = false;
            } else if (failed && proved) {
              provedWorkspaces.delete(credential.proof);
            }
          }
          if (failed && owed > 0) await store.drain(address, settings.ip, owed);
        }
      };
    },
    close: () => store.close(),
  };
}
