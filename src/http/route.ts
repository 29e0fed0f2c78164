/**
 * Routes are declared once, with their JSON Schemas; the same declarations mount the Koa
 * router (validated by ajv) and generate the OpenAPI document.
 */
import type { Context } from 'koa';
import type { Actor } from '../domain/actor';

export type JsonSchema = Record<string, unknown>;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  actor: Actor;
  ctx: Context;
  /** Answers with the route's `response.alternate` status instead of its main one. */
  useAlternate(): void;
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
  };
  /** Error statuses this operation documents (always with the Error body). */
  errors: number[];
  /** Returns the body; `raw` handlers write `ctx` themselves (streams, HTML). */
  handler(input: RouteInput<P, Q, B>): Promise<unknown> | unknown;
  raw?: boolean;
  /** The handler reads the request body itself (webhooks: raw bytes, other media types, own limits). */
  ownBody?: boolean;
}

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  route: Route<P, Q, B>,
): Route<P, Q, B> {
  return route;
}
