/**
 * GitLab mentions through the public receiver (X-Gitlab-Token) on the real stack: a note
 * mentioning the bot starts a workspace (source `gitlab`) and the agent's answer is posted as a
 * note on the local GitLab with the configured token; a failed pipeline of a merge request bound
 * to the workspace reaches its agent; a forged token starts nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { HANGAR_MARKER } from '../../../src/integrations/codeHosting/threads';
import { fakeGitlab } from '../../support/harness';
import { GITLAB_PROJECT_ID, gitlabNote, gitlabPipeline, sendGitlabEvent } from '../../support/mentionDeliveries';
import { until } from '../../support/wait';
import { boundThread, finishedMessages, orgWithRepository, threadDeliveryRecorded } from './support';

const notesOn = (noteable: 'issue' | 'merge_request', iid: number) => fakeGitlab().notes.filter((n) => n.project === String(GITLAB_PROJECT_ID) && n.noteable === noteable && n.iid === iid);

describe('GitLab mentions', function () {
  this.timeout(600_000);

  it('starts a workspace on a mention in a note and posts the answer as a note', async () => {
    const { org, api, fullName } = await orgWithRepository('gl-mention', 'gitlab.com');
    const forged = randomUUID();
    const refused = await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 7, note: '@hangar please fix' }), { uuid: forged, token: 'not-the-token' });
    expect(refused.status).to.equal(401);
    expect(await threadDeliveryRecorded('gitlab', org.organization_id, forged)).to.equal(false);

    const sent = await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 7, title: 'Export fails', description: 'CSV export times out.', note: '@hangar please fix\nchecking the CSV exporter', noteId: 901 }));
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);

    const thread = await boundThread(org.organization_id, 'gitlab', `${fullName}#7`);
    expect((await api.get(`/v1/replica/${thread.replica_id}`)).body.replica).to.include({ source: 'gitlab', name: 'Export fails' });
    expect(thread.reference).to.deep.include({ project_id: GITLAB_PROJECT_ID, repository: fullName, iid: 7, noteable: 'issue' });

    const answer = await until('the answer as a note', async () => notesOn('issue', 7).find((n) => n.body.startsWith('checking the CSV exporter')), 180_000, 250);
    expect(answer.body.endsWith(HANGAR_MARKER)).to.equal(true);
    expect(notesOn('issue', 7).some((n) => n.body.includes(thread.replica_id))).to.equal(true);
    expect(fakeGitlab().awards.some((a) => a.awardable === 'note:901' && a.name === 'eyes')).to.equal(true);
    expect(fakeGitlab().calls.filter((c) => c.method === 'POST').every((c) => c.token === fakeGitlab().token)).to.equal(true);
  });

  it("sends a failed pipeline of the workspace's merge request to its agent", async () => {
    const { org, fullName } = await orgWithRepository('gl-ci', 'gitlab.com');
    const mrUrl = `https://gitlab.com/${fullName}/-/merge_requests/5`;
    await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 8, note: `@hangar add a retry\nOpened ${mrUrl}` }));
    const thread = await boundThread(org.organization_id, 'gitlab', `${fullName}#8`);
    const mr = await boundThread(org.organization_id, 'gitlab', `${fullName}!5`);
    expect(mr.replica_id).to.equal(thread.replica_id);
    expect(mr.reference).to.deep.include({ repository: fullName, iid: 5, noteable: 'merge_request' });

    await sendGitlabEvent('Pipeline Hook', gitlabPipeline({ fullName, mergeRequest: 5, pipelineId: 3131, jobs: [{ name: 'rspec', status: 'failed' }] }));
    const messages = await finishedMessages(thread.replica_id, 2);
    expect(messages[1].content).to.include(`CI failed on your merge request ${fullName}!5`).and.include('rspec (stage test): script_failure');
    // The agent's answer reaches the merge request too (same project: addressed by its id).
    expect(mr.reference).to.deep.include({ project_id: GITLAB_PROJECT_ID });
    await until('the answer on the merge request', async () => notesOn('merge_request', 5).find((n) => n.body.startsWith('Please look into the failure')), 180_000, 250);
  });
});
