import { expect } from 'chai';
import { groupsKey, manualPullRequestKey, parsePullRequestDebounceKey, pullRequestDebounceKey } from '../../../../src/domain/automations/events';
import { manualPullRequestRefusal, normaliseTriggers } from '../../../../src/domain/automations/rules';
import { trustedPullRequest } from '../../../../src/domain/automations/run';
import { DomainError } from '../../../../src/domain/errors';

const REPO = '8a1f0c4e-6d2b-4c3a-9f1e-2b7d5e8c9a01';
const OTHER = '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b';

function refused(triggers: unknown[]): string {
  try {
    normaliseTriggers(triggers as Array<{ type: string; config?: Record<string, unknown> }>);
  } catch (err) {
    expect(err).to.be.instanceOf(DomainError);
    return (err as DomainError).details ?? '';
  }
  throw new Error('accepted');
}

describe('pull request commands and grouping: trigger rules', () => {
  it('accepts pull_request.command on github and merge_request.command on gitlab, not across providers', () => {
    const [github, gitlab] = normaliseTriggers([
      { type: 'github', config: { event: 'pull_request.command', excluded_actors: ['@bot'] } },
      { type: 'gitlab', config: { event: 'merge_request.command' } },
    ]);
    expect(github).to.deep.equal({ type: 'github', config: { event: 'pull_request.command', repository_ids: [], excluded_actors: ['@bot'], group_pr_events: false } });
    expect(gitlab!.config).to.deep.include({ event: 'merge_request.command' });
    expect(refused([{ type: 'gitlab', config: { event: 'pull_request.command' } }])).to.match(/^body\.triggers\.0\.config\.event: a gitlab trigger's event must be one of/);
    expect(refused([{ type: 'github', config: { event: 'merge_request.command' } }])).to.match(/pull_request\.command/);
    expect(refused([{ type: 'github', config: { event: 'pull_request.command' } }, { type: 'github', config: { event: 'pull_request.command' } }])).to.match(/at most one trigger per event/);
  });

  it('stores group_pr_events (default false) on github and gitlab triggers and refuses a non-boolean', () => {
    const [a, b, c] = normaliseTriggers([
      { type: 'github', config: { event: 'pull_request.synchronize', group_pr_events: true } },
      { type: 'gitlab', config: { event: 'merge_request.updated', group_pr_events: false } },
      { type: 'github', config: { event: 'pull_request.opened', group_pr_events: null } },
    ]);
    expect(a!.config).to.deep.include({ group_pr_events: true });
    expect(b!.config).to.deep.include({ group_pr_events: false });
    expect(c!.config).to.deep.include({ group_pr_events: false });
    expect(refused([{ type: 'github', config: { event: 'pull_request.opened', group_pr_events: 'yes' } }])).to.equal('body.triggers.0.config.group_pr_events: must be a boolean');
    expect(refused([{ type: 'custom', config: { group_pr_events: true } }])).to.match(/unknown field/);
  });

  it('a manual pr needs a github pull_request.command trigger covering the repository', () => {
    const command = (ids: string[] = []) => ({ type: 'github', config: { event: 'pull_request.command', repository_ids: ids } });
    expect(manualPullRequestRefusal([command()], REPO)).to.equal(null);
    expect(manualPullRequestRefusal([command([REPO.toUpperCase()])], REPO)).to.equal(null);
    expect(manualPullRequestRefusal([command([OTHER])], REPO)).to.match(/^body\.pr\.repository_id: the pull_request\.command trigger does not cover repository/);
    expect(manualPullRequestRefusal([{ type: 'github', config: { event: 'pull_request.opened' } }], REPO)).to.match(/^body\.pr: only an automation with a github pull_request\.command trigger/);
    expect(manualPullRequestRefusal([{ type: 'gitlab', config: { event: 'merge_request.command' } }, { type: 'custom', config: {} }], REPO)).to.match(/^body\.pr:/);
  });
});

describe('pull request commands and grouping: which runs may report checks', () => {
  const payload = {
    provider: 'github',
    repository: { full_name: 'acme/app' },
    pull_request: { number: 12, head: { sha: 'abc' } },
    repository_id: REPO,
    installation_id: 7,
  };

  it('parses only pull-request debounce keys', () => {
    expect(parsePullRequestDebounceKey(pullRequestDebounceKey(REPO, 12))).to.deep.equal({ repositoryId: REPO, number: 12 });
    expect(parsePullRequestDebounceKey(manualPullRequestKey(REPO, 12))).to.deep.equal({ repositoryId: REPO, number: 12 });
    for (const key of ['custom', `slack:C1:1.2`, `pr:${REPO}:0`, `pr:${REPO}:x`, `pr:nope:1`, null, undefined]) {
      expect(parsePullRequestDebounceKey(key), String(key)).to.equal(null);
    }
  });

  it('never groups a manual pull request run into an earlier workspace', () => {
    const triggers = [{ type: 'github', config: { event: 'pull_request.command', group_pr_events: true } }];
    expect(groupsKey(triggers, pullRequestDebounceKey(REPO, 12), 'pull_request.command')).to.equal(true);
    expect(groupsKey(triggers, manualPullRequestKey(REPO, 12), 'pull_request.command')).to.equal(false);
  });

  it('groups opened, synchronize and command events, not merged or closed ones', () => {
    const triggers = [{ type: 'gitlab', config: { event: 'merge_request.opened', group_pr_events: true } }];
    for (const event of ['merge_request.opened', 'merge_request.updated', 'merge_request.command']) expect(groupsKey(triggers, pullRequestDebounceKey(REPO, 3), event), event).to.equal(true);
    for (const event of ['merge_request.merged', 'merge_request.closed', undefined]) expect(groupsKey(triggers, pullRequestDebounceKey(REPO, 3), event), String(event)).to.equal(false);
    expect(groupsKey([{ type: 'gitlab', config: { event: 'merge_request.opened' } }], pullRequestDebounceKey(REPO, 3), 'merge_request.updated')).to.equal(false);
    expect(groupsKey([{ type: 'slack', config: { event: 'message' } }], 'slack:C1:1.2')).to.equal(true);
    expect(groupsKey([{ type: 'slack', config: { event: 'message', group_thread_replies: false } }], 'slack:C1:1.2')).to.equal(false);
  });

  it('trusts a payload only from its own pull request event', () => {
    expect(trustedPullRequest(payload, pullRequestDebounceKey(REPO, 12))).to.deep.equal({ repository: 'acme/app', headSha: 'abc', installationId: 7 });
    expect(trustedPullRequest(payload, manualPullRequestKey(REPO, 12))).to.deep.equal({ repository: 'acme/app', headSha: 'abc', installationId: 7 });
    // A custom webhook, a manual fire without pr or a cron run: the payload may say anything.
    expect(trustedPullRequest(payload, 'custom')).to.equal(null);
    expect(trustedPullRequest(payload, null)).to.equal(null);
    // The key names another repository or pull request than the payload.
    expect(trustedPullRequest(payload, pullRequestDebounceKey(OTHER, 12))).to.equal(null);
    expect(trustedPullRequest(payload, pullRequestDebounceKey(REPO, 13))).to.equal(null);
    // No head commit (a GitHub command): nothing to report on.
    expect(trustedPullRequest({ ...payload, pull_request: { number: 12, head: { sha: null } } }, pullRequestDebounceKey(REPO, 12))).to.equal(null);
  });
});
