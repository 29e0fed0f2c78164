import { expect } from 'chai';
import { CIRCUIT_BREAKER_FAILURES, pullRequestOf, runPrompt, runWorkspaceId, tripsCircuitBreaker } from '../../../../src/domain/automations/run';

describe('domain/automations/run', () => {
  it('gives the agent the prompt alone without a payload, and the payload as JSON under a heading with one', () => {
    for (const empty of [undefined, null, {}]) expect(runPrompt('Say hi.', empty)).to.equal('Say hi.');
    expect(runPrompt('Say hi.', { n: 1 })).to.equal('Say hi.\n\n## Trigger Payload\n\n```json\n{\n  "n": 1\n}\n```\n');
  });

  it('derives the same UUID-shaped workspace id from the same execution, a different one from another', () => {
    const id = runWorkspaceId('5c1f1f0e-0000-4000-8000-000000000001');
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(runWorkspaceId('5c1f1f0e-0000-4000-8000-000000000001')).to.equal(id);
    expect(runWorkspaceId('5c1f1f0e-0000-4000-8000-000000000002')).to.not.equal(id);
  });

  it('trips the circuit breaker only on a full tail of failures', () => {
    const failures = Array<string>(CIRCUIT_BREAKER_FAILURES).fill('failed');
    expect(tripsCircuitBreaker(failures)).to.equal(true);
    expect(tripsCircuitBreaker(failures.slice(1))).to.equal(false);
    expect(tripsCircuitBreaker(['completed', ...failures.slice(1)])).to.equal(false);
  });

  it('finds the pull request of a GitHub trigger payload with a head commit, and nothing else', () => {
    const payload = { provider: 'github', repository: { full_name: 'acme/app' }, pull_request: { head: { sha: 'abc' } }, installation_id: 7 };
    expect(pullRequestOf(payload)).to.deep.equal({ repository: 'acme/app', headSha: 'abc', installationId: 7 });
    expect(pullRequestOf({ ...payload, installation_id: undefined })).to.deep.equal({ repository: 'acme/app', headSha: 'abc', installationId: null });
    expect(pullRequestOf({ ...payload, provider: 'gitlab' })).to.equal(null);
    expect(pullRequestOf({ ...payload, pull_request: { head: { sha: '' } } })).to.equal(null);
    expect(pullRequestOf(null)).to.equal(null);
  });
});
