/**
 * Routes are declared once, with their JSON Schemas; the same declarations mount the Koa
 * router (validated by ajv) and generate the OpenAPI document.
 */
import type { Context } from 'koa';
import type { Actor } from '../domain/actor';
import type { BodyOf, JsonSchema, QueryOf } from '../schemas/common';

export type { JsonSchema };
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  actor: Actor;
  ctx: Context;
  /** Answers with the route's `response.alternate` status instead of its main one. */
  useAlternate(): void;
  /** Reads the raw body of an `ownBody` route, at most the route's `bodyLimit` (413 beyond). */
  readBody(options?: ReadBodyOptions): Promise<Buffer>;
}

/**
 * The size classes routes name in `bodyLimit`, each an operator setting: `json` for ordinary
 * JSON operations (`HANGAR_BODY_LIMIT_BYTES`), `messages` for those that carry images
 * (`HANGAR_MESSAGE_BODY_LIMIT_BYTES`), `codeHosting` for GitHub's and GitLab's deliveries
 * (`HANGAR_WEBHOOK_BODY_LIMIT_BYTES`).
 */
export type BodyLimitName = 'json' | 'messages' | 'codeHosting';

/** A signature checked while the body streams in (the sender's secret is known from the headers). */
export interface BodyVerifier {
  update(chunk: Buffer): void;
  /** At the end of the body: throws the receiver's own rejection when the signature does not match. */
  verify(): void;
}

export interface ReadBodyOptions {
  /** Media types the route takes (`ctx.is` patterns): any other is a 415 before a byte is read. */
  types?: string[];
  /**
   * Nobody vouches for the body yet (a webhook whose signature can only be checked against its
   * content): it takes one of the process's unverified-body slots while it is read, until the
   * request is answered (503 with Retry-After when none is free).
   */
  unverified?: boolean;
  /**
   * Checks the body as it arrives; the slot is given back once it passes. Implies `unverified`.
   * Past a small size the bytes wait on disk, never in memory, until the signature is known to match.
   */
  verifier?: BodyVerifier;
}

export interface Route<P = any, Q = any, B = any> {
  method: Method;
  /** Koa-router syntax: `/v1/environments/:id`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /**
   * `none` for health, docs and token-authenticated webhooks; `apiKeyOrEngine` also accepts a
   * workspace's engine secret with `X-Workspace-Id` (code running inside a workspace).
   */
  auth: 'apiKey' | 'apiKeyOrEngine' | 'none';
  /**
   * An `auth: 'none'` route that checks a workspace's own credential: its engine secret (with
   * `X-Workspace-Id`) or its AI gateway key. Rate limits count such calls per workspace rather
   * than per address, since many workspaces may reach the API from one (src/http/rateLimit.ts).
   */
  workspaceCredential?: 'engineSecret' | 'gatewayKey';
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** Body is optional (e.g. DELETE); by default a route with a body schema requires one. */
  bodyOptional?: boolean;
  response: {
    status: number;
    description: string;
    schema?: JsonSchema;
    contentType?: string;
    /** Another success status with the same body (e.g. 202 when queued): the handler picks it with `useAlternate()`. */
    alternate?: { status: number; description: string };
    /**
     * The handler answers with frozen objects that it hands out again for as long as their
     * content holds (a memo): each is serialised once, with an ETag, and a request naming that
     * ETag in `If-None-Match` is answered 304 without a body.
     */
    reusedBodies?: boolean;
  };
  /** Error statuses this operation documents (always with the Error body). */
  errors: number[];
  /** Returns the body; `raw` handlers write `ctx` themselves (streams, HTML). */
  handler(input: RouteInput<P, Q, B>): Promise<unknown> | unknown;
  raw?: boolean;
  /** The handler reads the request body itself with `readBody` (webhooks: raw bytes, other media types). */
  ownBody?: boolean;
  /** The largest body this operation reads: a size class (default `json`) or a fixed number of bytes. */
  bodyLimit?: BodyLimitName | number;
  /** A webhook receiver: its deliveries are counted under this provider in `hangar_webhook_deliveries_total`. */
  webhook?: string;
}

/** What a route's path parameters or query are, from its schema (none: an empty object). */
export type ParamsFrom<S> = S extends JsonSchema ? QueryOf<S> : Record<string, never>;
/** What a route's body is, from its schema (none: undefined; optional: or undefined). */
export type BodyFrom<S, Optional> = S extends JsonSchema ? BodyOf<S> | (Optional extends true ? undefined : never) : undefined;

/**
 * A route as declared: its handler's `params`, `query` and `body` are typed from the schemas
 * beside it, so a handler cannot read an input in a shape its schema does not admit.
 */
export type RouteDeclaration<PS, QS, BS, O extends boolean> = Omit<Route, 'params' | 'query' | 'body' | 'bodyOptional' | 'handler'> & {
  params?: PS;
  query?: QS;
  body?: BS;
  bodyOptional?: O;
  handler(input: RouteInput<ParamsFrom<PS>, ParamsFrom<QS>, BodyFrom<BS, O>>): Promise<unknown> | unknown;
};

export function defineRoute<
  PS extends JsonSchema | undefined = undefined,
  QS extends JsonSchema | undefined = undefined,
  BS extends JsonSchema | undefined = undefined,
  O extends boolean = false,
>(route: RouteDeclaration<PS, QS, BS, O>): Route<ParamsFrom<PS>, ParamsFrom<QS>, BodyFrom<BS, O>> {
  return route as Route<ParamsFrom<PS>, ParamsFrom<QS>, BodyFrom<BS, O>>;
}
