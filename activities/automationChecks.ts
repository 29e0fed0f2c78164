/**
 * Checks on the pull request that fired a run (only a run that came from a pull request's
 * event, never one whose caller-written payload merely names a pull request): one per name in the automation's
 * `vcs_check_names`, opened in progress when the run starts and completed with its verdict.
 * Each check is a row (execution, name) holding the platform's check id, and the platform
 * call itself is idempotent by `external_id` (`{executionId}:{name}`), so a worker that dies
 * between creating a check and storing its id finds the same check on retry.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Repositories } from '../src/db';
import { trustedPullRequest } from '../src/domain/automations/run';
import type { Logger } from '../src/logger';
import { GithubApiError } from '../src/integrations/github/api';
import type { CheckConclusion, GithubChecksClient } from '../src/integrations/github/checks';

export interface AutomationCheckDeps {
  repos: Pick<Repositories, 'automations' | 'automationExecutions'>;
  github: GithubChecksClient;
  /** Where a check's "details" link points (the service's public URL), when known. */
  publicBaseUrl?: string;
  logger: Logger;
}

const SUMMARY_LIMIT = 60_000;

export function createAutomationCheckActivities(deps: AutomationCheckDeps) {
  const { automations, automationExecutions: executions } = deps.repos;

  /** Platform errors that will not heal by retrying end the activity for good. */
  function rethrow(err: unknown): never {
    if (err instanceof GithubApiError && !err.retryable) throw ApplicationFailure.nonRetryable(err.message, 'CheckRejected');
    throw err;
  }

  return {
    /** Opens the run's checks; returns how many exist afterwards (0 when the run reports none). */
    async openRunChecks(executionId: string): Promise<number> {
      const exec = await executions.find(executionId);
      if (!exec) return 0;
      const automation = await automations.findById(exec.automation_id);
      const names: string[] = automation?.vcs_check_names ?? [];
      if (!names.length) return 0;
      const pr = trustedPullRequest(exec.trigger_payload, await executions.debounceKeyOf(executionId));
      if (!pr) return 0;
      if (!deps.github.configured) {
        deps.logger.warn('checks skipped: no code-hosting credentials are configured', { executionId });
        return 0;
      }
      for (const name of names) {
        const row = await executions.findCheck(executionId, name);
        if (row?.external_id) continue;
        try {
          const check = await deps.github.ensureCheckRun({
            repository: pr.repository,
            installationId: pr.installationId,
            headSha: pr.headSha,
            name,
            externalId: `${executionId}:${name}`,
            title: `${automation!.name} is running`,
            summary: 'The automation started a workspace for this pull request.',
          });
          await executions.recordCheck({
            execution_id: executionId,
            name,
            automation_id: exec.automation_id,
            provider: 'github',
            repository: pr.repository,
            head_sha: pr.headSha,
            external_id: String(check.id),
          });
        } catch (err) {
          rethrow(err);
        }
      }
      return names.length;
    },

    /** Completes every open check of the run with the verdict. */
    async completeRunChecks(executionId: string, ok: boolean, detail: string | null): Promise<number> {
      const open = await executions.openChecks(executionId);
      if (!open.length) return 0;
      const exec = await executions.find(executionId);
      const installationId = exec ? (trustedPullRequest(exec.trigger_payload, await executions.debounceKeyOf(executionId))?.installationId ?? null) : null;
      const conclusion: CheckConclusion = ok ? 'success' : 'failure';
      const link = deps.publicBaseUrl && exec?.workspace_id ? `\n\nWorkspace: ${deps.publicBaseUrl.replace(/\/$/, '')}/v1/replica/${exec.workspace_id}` : '';
      const summary = (ok ? detail || 'The agent finished its turn.' : `The run failed: ${detail ?? 'unknown error'}`).slice(0, SUMMARY_LIMIT) + link;
      for (const check of open) {
        try {
          await deps.github.completeCheckRun({
            repository: check.repository,
            installationId,
            id: Number(check.external_id),
            conclusion,
            title: ok ? 'Passed' : 'Failed',
            summary,
          });
        } catch (err) {
          rethrow(err);
        }
        await executions.completeCheck(executionId, check.name, conclusion);
      }
      return open.length;
    },
  };
}

export type AutomationCheckActivities = ReturnType<typeof createAutomationCheckActivities>;
