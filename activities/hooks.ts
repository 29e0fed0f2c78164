/**
 * Runs a hook chain in a fresh sandbox: the inherited hooks (Global, then the source
 * environment's), then the supplied script, with the environment's resolved variables and
 * files. Secrets are resolved here, inside the worker, so they never enter workflow history.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { SecretBox } from '../src/crypto/secretBox';
import type { Repositories } from '../src/db';
import { EnvironmentGoneError } from '../src/domain/resolution';
import type { EventBus } from '../src/events/bus';
import { createHookStreamPublisher, type HookStreamPublisher } from '../src/events/hookStream';
import type { Logger } from '../src/logger';
import { SandboxImageMissingError, SandboxInputError, type SandboxRuntime } from '../src/sandbox';
import { FailureTypes, type HookTestInput, type HookTestResult } from '../workflows/shared';
import { inheritedHooks, resolveEnvironment } from '../src/worker/environmentSetup';

export interface HookActivityDeps {
  repos: Pick<Repositories, 'environments' | 'environmentResources' | 'hooks'>;
  secretBox: SecretBox;
  sandbox: SandboxRuntime;
  bus: EventBus;
  logger: Logger;
  hookTimeoutMs: number;
}

const HEARTBEAT_MS = 2000;

export function createHookActivities(deps: HookActivityDeps) {
  return {
    async runHookTest(input: HookTestInput): Promise<HookTestResult> {
      const ctx = Context.current();
      const resolved = await resolveEnvironment(deps, input.organizationId, input.environmentId).catch(rethrowAsFailure);
      const inherited = await inheritedHooks(deps.repos, resolved, input.kind);
      const ownLayer = resolved.environment.is_global ? 'global' : resolved.environment.user_id ? 'personal' : 'environment';
      const steps = [
        ...inherited.map((h) => ({ name: `${h.layer} ${input.kind} hook`, script: h.content })),
        { name: `${ownLayer} ${input.kind} hook`, script: input.content },
      ];

      const publisher: HookStreamPublisher | null = input.streamChannel
        ? createHookStreamPublisher(deps.bus, input.streamChannel, (err) => deps.logger.warn('hook stream publish failed', { err }))
        : null;
      // Heartbeats carry cancellation to this activity (client hung up, workflow cancelled).
      const heartbeat = setInterval(() => ctx.heartbeat(), HEARTBEAT_MS);
      try {
        const result = await deps.sandbox
          .runHooks({
          steps,
          env: resolved.variables,
          files: resolved.files,
          timeoutMs: deps.hookTimeoutMs,
          signal: ctx.cancellationSignal,
          onOutput: publisher ? (chunk) => publisher.output(chunk) : undefined,
          onStep: publisher ? (e) => publisher.step(e.step, e.state, e.exitCode) : undefined,
          })
          .catch(rethrowAsFailure);
        deps.logger.info('hook test finished', {
          testId: input.testId,
          environmentId: input.environmentId,
          exitCode: result.exitCode,
          timedOut: result.timedOut,
        });
        return { exit_code: result.exitCode, output: result.output, timed_out: result.timedOut };
      } finally {
        clearInterval(heartbeat);
        await publisher?.finish();
      }
    },
  };
}

/** Errors that retrying cannot fix become non-retryable failures with explicit types. */
function rethrowAsFailure(err: unknown): never {
  const nonRetryable = (type: string) => ApplicationFailure.create({ message: (err as Error).message, type, nonRetryable: true });
  if (err instanceof EnvironmentGoneError) throw nonRetryable(FailureTypes.environmentGone);
  if (err instanceof SandboxInputError) throw nonRetryable(FailureTypes.invalidInput);
  if (err instanceof SandboxImageMissingError) throw nonRetryable(FailureTypes.sandboxUnavailable);
  throw err;
}

export type HookActivities = ReturnType<typeof createHookActivities>;
