/**
 * The models an organization allows, enforced on a request body that streams: the body's head
 * is held until its top-level `model` is known (it comes first in what the agent CLIs send), and
 * a model the organization has not enabled is refused before a byte goes upstream. The rest of
 * the body is watched as it passes; a second top-level `model` or a `models` fallback list
 * (which a provider's parser could act on instead) ends the stream with an error before the
 * body is complete, so the provider never has a request it can run.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { createRequestScanner, MODEL_SCAN_LIMIT_BYTES, type RequestScan } from './requestModel';

/** Why a body may not go upstream under the organization's models. */
export class ModelRefusal extends Error {
  constructor(
    message: string,
    /** The model the body names, when it names one. */
    readonly model: string | null,
  ) {
    super(message);
    this.name = 'ModelRefusal';
  }
}

export interface ModelGate {
  /** The stream to forward: the client's body goes in, the checked body comes out. */
  stream: Transform;
  /**
   * Settles once the model is known: null when the body may go (the held head then flows),
   * the refusal otherwise (nothing was let through). Settles with null too when the stream
   * ended or failed first: the forwarding reports that.
   */
  decision: Promise<ModelRefusal | null>;
  model(): string | null;
  /** The refusal that ended the stream, before or after the head went upstream. */
  refusal(): ModelRefusal | null;
}

function verdict(scan: RequestScan, allowed: ReadonlySet<string>, describe: string): ModelRefusal | null {
  if (scan.modelKeys > 1) return new ModelRefusal('The request body names "model" more than once at the top level.', scan.model);
  if (scan.fallbackModels) return new ModelRefusal(`The request body lists fallback "models"; the gateway forwards one model from ${describe}.`, scan.model);
  if (scan.modelNotString) return new ModelRefusal('The request body\'s top-level "model" is not a model name.', null);
  if (scan.model !== null && !allowed.has(scan.model)) {
    return new ModelRefusal(`The model "${scan.model.slice(0, 200)}" is not enabled for this agent in the organization; ask an admin, or use one of ${describe}.`, scan.model);
  }
  return null;
}

/**
 * `allowed`: the organization's models for the agent. `describe`: how to name them in a refusal
 * (a short list, for the CLI's error line).
 */
export function modelGate(allowed: ReadonlySet<string>, describe: string, headLimit = MODEL_SCAN_LIMIT_BYTES): ModelGate {
  const scan = createRequestScanner();
  let held: Buffer[] | null = [];
  let refused: ModelRefusal | null = null;
  const refuse = (refusal: ModelRefusal) => (refused = refusal);
  let settle!: (refusal: ModelRefusal | null) => void;
  const decision = new Promise<ModelRefusal | null>((resolve) => (settle = resolve));

  /** Whether the head says enough: the model read, or the body known to have none. */
  const decided = () =>
    scan.model !== null || scan.modelNotString || scan.modelKeys > 1 || scan.fallbackModels || scan.shape === 'closed' || scan.shape === 'not_object' || scan.seen >= headLimit;

  /** The model was read within the head: however the body was cut into chunks, the same answer. */
  const inHead = () => scan.model !== null && scan.modelEnd !== null && scan.modelEnd <= headLimit;

  const missing = () =>
    new ModelRefusal(
      scan.model !== null || scan.shape === 'object'
        ? `The request body does not name its "model" within its first ${Math.round(headLimit / 1024)} KiB; put it first.`
        : scan.shape === 'closed'
          ? `The request body names no "model"; this organization allows only ${describe}.`
          : `The request body is not a JSON object naming its "model"; this organization allows only ${describe}.`,
      scan.model,
    );

  /** Decides on the held head: the refusal, or the head passed on as one chunk. */
  const releaseHead = (callback: TransformCallback) => {
    const refusal = verdict(scan, allowed, describe) ?? (inHead() ? null : missing());
    settle(refusal);
    if (refusal) return callback(refuse(refusal));
    const head = Buffer.concat(held!);
    held = null;
    return callback(null, head);
  };

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      scan.feed(chunk);
      if (held) {
        held.push(chunk);
        if (!decided()) return callback();
        return releaseHead(callback);
      }
      const refusal = verdict(scan, allowed, describe);
      // Withheld with everything after it: the provider is left with a body it cannot complete.
      if (refusal) return callback(refuse(refusal));
      callback(null, chunk);
    },
    flush(callback) {
      if (held) {
        // The body ended before the head said anything (an empty or short body).
        return releaseHead(callback);
      }
      callback();
    },
  });
  // A refusal is reported through `decision` or the forwarding's failure, not as an event.
  stream.on('error', () => undefined);
  stream.once('close', () => settle(null));
  return { stream, decision, model: () => scan.model, refusal: () => refused };
}
