/**
 * What differs between the providers behind the gateway: where a credential goes in the
 * upstream request and what an error body looks like, so that each agent's CLI reads the
 * gateway's own errors as it reads its provider's.
 */
import type { AgentId, CredentialKind } from '../agents/catalog';

/** agent_1 speaks Anthropic's API; agents 2–5 OpenAI-style APIs (OpenAI, Cursor, OpenRouter). */
export type Wire = 'anthropic' | 'openai';

export const AGENT_WIRE: Record<AgentId, Wire> = {
  agent_1: 'anthropic',
  agent_2: 'openai',
  agent_3: 'openai',
  agent_4: 'openai',
  agent_5: 'openai',
};

/** The header a credential travels in upstream. */
export function credentialHeaders(wire: Wire, credential: { kind: CredentialKind; secret: string }): Record<string, string> {
  if (wire === 'anthropic' && credential.kind === 'api_key') return { 'x-api-key': credential.secret };
  return { authorization: `Bearer ${credential.secret}` };
}

export type GatewayErrorKind = 'authentication' | 'permission' | 'not_found' | 'invalid_request' | 'upstream' | 'internal';

const ANTHROPIC_TYPE: Record<GatewayErrorKind, string> = {
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  invalid_request: 'invalid_request_error',
  upstream: 'api_error',
  internal: 'api_error',
};

const OPENAI_TYPE: Record<GatewayErrorKind, { type: string; code: string | null }> = {
  authentication: { type: 'invalid_request_error', code: 'invalid_api_key' },
  permission: { type: 'invalid_request_error', code: 'permission_denied' },
  not_found: { type: 'invalid_request_error', code: 'unknown_url' },
  invalid_request: { type: 'invalid_request_error', code: null },
  upstream: { type: 'server_error', code: 'upstream_unreachable' },
  internal: { type: 'server_error', code: null },
};

/** An error body in the provider's shape; `code` (OpenAI shape only) says more than the kind. */
export function errorBody(wire: Wire, kind: GatewayErrorKind, message: string, detail: { code?: string; param?: string } = {}): Record<string, unknown> {
  if (wire === 'anthropic') return { type: 'error', error: { type: ANTHROPIC_TYPE[kind], message } };
  const { type, code } = OPENAI_TYPE[kind];
  return { error: { message, type, param: detail.param ?? null, code: detail.code ?? code } };
}
