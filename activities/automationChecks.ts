/**
 * Checks on the pull request that fired a run: one per name in the automation's
 * `vcs_check_names`, opened in progress when the run starts and completed with its verdict.
 * Each check is a row (execution, name) holding the platform's check id, and the platform
 * call itself is idempotent by `external_id` (`{executionId}:{name}`), so a worker that dies
 * between creating a check and storing its id finds the same check on retry.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { Logger } from '../src/logger';
import { GithubApiError, type CheckConclusion, type createGithubChecksClient } from '../src/codeHosting/githubChecks';

export interface AutomationCheckDeps {
  db: Knex;
  github: ReturnType<typeof createGithubChecksClient>;
  /** Where a check's "details" link points (the service's public URL), when known. */
  publicBaseUrl?: string;
  logger: Logger;
}

/** The pull request a run's trigger payload names, when it is a code-hosting event with a head commit. */
export function pullRequestOf(payload: unknown): { repository: string; headSha: string; installationId: number | null } | null {
  const p = payload as { provider?: unknown; repository?: { full_name?: unknown }; pull_request?: { head?: { sha?: unknown } }; installation_id?: unknown } | null;
  if (!p || p.provider !== 'github') return null;
  const repository = p.repository?.full_name;
  const headSha = p.pull_request?.head?.sha;
  if (typeof repository !== 'string' || typeof headSha !== 'string' || !headSha) return null;
  return { repository, headSha, installationId: typeof p.installation_id === 'number' ? p.installation_id : null };
}

const SUMMARY_LIMIT = 60_000;

export function createAutomationCheckActivities(deps: AutomationCheckDeps) {
  const { db } = deps;

  /** Platform errors that will not heal by retrying end the activity for good. */
  function rethrow(err: unknown): never {
    if (err instanceof GithubApiError && !err.retryable) throw ApplicationFailure.nonRetryable(err.message, 'CheckRejected');
    throw err;
  }

  return {
    /** Opens the run's checks; returns how many exist afterwards (0 when the run reports none). */
    async openRunChecks(executionId: string): Promise<number> {
      const exec = await db('automation_executions').where({ id: executionId }).first('automation_id', 'trigger_payload', 'workspace_id');
      if (!exec) return 0;
      const automation = await db('automations').where({ id: exec.automation_id }).first('vcs_check_names', 'name');
      const names: string[] = automation?.vcs_check_names ?? [];
      const pr = pullRequestOf(exec.trigger_payload);
      if (!names.length || !pr) return 0;
      if (!deps.github.configured) {
        deps.logger.warn('checks skipped: no code-hosting credentials are configured', { executionId });
        return 0;
      }
      for (const name of names) {
        const row = await db('automation_checks').where({ execution_id: executionId, name }).first('external_id');
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
          await db('automation_checks')
            .insert({ execution_id: executionId, name, automation_id: exec.automation_id, provider: 'github', repository: pr.repository, head_sha: pr.headSha, external_id: String(check.id) })
            .onConflict(['execution_id', 'name'])
            .merge(['external_id']);
        } catch (err) {
          rethrow(err);
        }
      }
      return names.length;
    },

    /** Completes every open check of the run with the verdict. */
    async completeRunChecks(executionId: string, ok: boolean, detail: string | null): Promise<number> {
      const open = await db('automation_checks').where({ execution_id: executionId, status: 'in_progress' }).whereNotNull('external_id');
      if (!open.length) return 0;
      const exec = await db('automation_executions').where({ id: executionId }).first('trigger_payload', 'workspace_id');
      const installationId = pullRequestOf(exec?.trigger_payload)?.installationId ?? null;
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
        await db('automation_checks')
          .where({ execution_id: executionId, name: check.name })
          .update({ status: 'completed', conclusion, completed_at: db.fn.now() });
      }
      return open.length;
    },
  };
}

export type AutomationCheckActivities = ReturnType<typeof createAutomationCheckActivities>;
