/**
 * What a fuzz answer must be: some answer at all, never a 5xx, every error (4xx/5xx) the Error
 * body `{error: string, details: string|null}` as JSON, no success for another organization's
 * records, and no id of another organization the request did not itself name.
 */
import type { FuzzRequest, Keys } from './cases';
import type { Answer } from './client';

export interface Tenants {
  keys: Keys;
  /** Every id of the fuzzing organization's records, and of the other organization's. */
  ownIds: string[];
  otherIds: string[];
  /**
   * The other organization's ids the fuzzing organization has itself sent in a request that
   * succeeded: ids clients choose (chats, messages) may then name its own records too.
   */
  adopted: Set<string>;
}

/**
 * The AI gateway answers the agents' CLIs, so its own errors take their provider's shape
 * (`{error: {message, type}}`, or Anthropic's `{type: "error", error: {…}}`), as the CLIs
 * read them. The MCP endpoint's protocol errors are JSON-RPC error objects
 * (`{jsonrpc, error: {code, message}, id}`), as MCP clients read them; its own refusals
 * before the protocol (401, 413, 415, 429) keep the Error body.
 */
const PROVIDER_SHAPED_ERRORS = new Set(['proxyAiGateway', 'proxyAiGatewayGet', 'mcp']);

/** Why the answer is wrong, or null. */
export function judge(req: FuzzRequest, answer: Answer, tenants: Tenants): string | null {
  if (answer.status === 0) return `no answer (${answer.failure ?? 'unknown'})`;
  if (answer.status >= 500) return `${answer.status} answer`;
  if (answer.status >= 400 && req.method !== 'HEAD') {
    const problem = errorBodyProblem(answer);
    if (problem && !(PROVIDER_SHAPED_ERRORS.has(req.op) && providerErrorMessage(answer) !== null)) return `${answer.status} without the Error body: ${problem}`;
  }
  if (req.mustNotSucceed && answer.status < 300) return `another organization's record answered ${answer.status}`;
  if (answer.status < 300 && /json/i.test(answer.contentType) && answer.body !== '' && !answer.failure && !answer.truncated) {
    try {
      JSON.parse(answer.body);
    } catch {
      return `${answer.status} with a JSON content type and a body that is not JSON`;
    }
  }
  const leaked = foreignIdIn(req, answer, tenants);
  if (leaked) return `the answer names ${leaked}, a record of the organization the caller is not in`;
  return null;
}

export function errorBodyProblem(answer: Pick<Answer, 'contentType' | 'body'>): string | null {
  if (!/^application\/json\b/i.test(answer.contentType)) return `content type ${JSON.stringify(answer.contentType)}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return 'the body is not JSON';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body is not an object';
  const { error, details } = body as { error?: unknown; details?: unknown };
  if (typeof error !== 'string' || error === '') return '`error` is not a non-empty string';
  if (!('details' in body)) return '`details` is missing';
  if (details !== null && typeof details !== 'string') return '`details` is neither a string nor null';
  return null;
}

/**
 * A request naming another organization's records must be answered as the same request naming
 * records that do not exist: anything else tells the caller they exist.
 */
export function sameAsMissing(answer: Answer, twin: Answer): string | null {
  const error = (a: Answer) => {
    try {
      return (JSON.parse(a.body) as { error?: unknown }).error;
    } catch {
      return undefined;
    }
  };
  if (answer.status !== twin.status) return `another organization's record answered ${answer.status}, a missing one ${twin.status}`;
  if (answer.status >= 400 && JSON.stringify(error(answer)) !== JSON.stringify(error(twin))) {
    return `another organization's record answered ${JSON.stringify(error(answer))}, a missing one ${JSON.stringify(error(twin))}`;
  }
  return null;
}

function providerErrorMessage(answer: Answer): string | null {
  try {
    const body = JSON.parse(answer.body) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' ? body.error.message : null;
  } catch {
    return null;
  }
}

function foreignIdIn(req: FuzzRequest, answer: Answer, tenants: Tenants): string | null {
  if (answer.body === '') return null;
  const asOther = req.headers.authorization === `Bearer ${tenants.keys.other}`;
  const foreign = asOther ? tenants.ownIds : tenants.otherIds;
  const body = answer.body.toLowerCase();
  const sent = `${req.path} ${req.raw ?? ''} ${req.body === undefined ? '' : req.body.toString()} ${JSON.stringify(req.headers)}`.toLowerCase();
  return foreign.find((id) => body.includes(id) && !sent.includes(id) && (asOther || !tenants.adopted.has(id))) ?? null;
}
