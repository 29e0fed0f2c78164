/**
 * Errors the sandbox raises on purpose. Callers map `SandboxInputError` to a 400 and
 * `SandboxImageMissingError` to a 503 with its message (it names the fix).
 */
export class SandboxInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'SandboxInputError';
  }
}

export class SandboxImageMissingError extends Error {
  constructor(readonly image: string) {
    super(`Sandbox image "${image}" is not in the Docker engine; run \`npm run setup\` to build it`);
    this.name = 'SandboxImageMissingError';
  }
}

/** Docker engine errors carry the HTTP status of the Engine API answer. */
export function dockerStatus(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

export function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const err = new Error('The hook run was cancelled');
  err.name = 'AbortError';
  return err;
}
