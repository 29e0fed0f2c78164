import { expect } from 'chai';
import { WorkspaceReports } from '../../../workflows/workspaceReports';

const reportTo = { workflowId: 'run/1', messageId: 'msg-1' };

describe('workflows/workspaceReports', () => {
  it('tells the run the workspace was started for once, and only about its prompt', () => {
    const r = new WorkspaceReports(reportTo, undefined, false);
    expect(r.isRunMessage('msg-1')).to.equal(true);
    expect(r.isRunMessage('msg-2')).to.equal(false);
    expect(r.claimRun()).to.equal('run/1');
    expect(r.claimRun()).to.equal(null);
    expect(r.carry().reported).to.equal(true);
  });

  it('has no run to tell without reportTo, and remembers a run told before continuing as new', () => {
    const none = new WorkspaceReports(undefined, undefined, false);
    expect(none.isRunMessage('msg-1')).to.equal(false);
    expect(none.claimRun()).to.equal(null);
    const told = new WorkspaceReports(reportTo, { status: 'active', pendingChats: [], lifecycle: [], reported: true }, true);
    expect(told.claimRun()).to.equal(null);
  });

  it('tells each grouped run once: the one waiting on a message, or every one', () => {
    const r = new WorkspaceReports(undefined, undefined, false);
    r.groupedRunWaits({ workflowId: 'run/2', messageId: 'msg-2' });
    r.groupedRunWaits({ workflowId: 'run/3', messageId: 'msg-3' });
    expect(r.groupedRuns('msg-9')).to.deep.equal([]);
    expect(r.groupedRuns('msg-2')).to.deep.equal([['msg-2', 'run/2']]);
    r.groupedRunTold('msg-2');
    expect(r.groupedRuns('msg-2')).to.deep.equal([]);
    expect(r.groupedRuns(null)).to.deep.equal([['msg-3', 'run/3']]);
  });

  it('carries the grouped runs not told yet, and takes them back', () => {
    const r = new WorkspaceReports(reportTo, undefined, true);
    r.groupedRunWaits({ workflowId: 'run/2', messageId: 'msg-2' });
    const carried = { status: 'active' as const, pendingChats: [], lifecycle: [], ...r.carry() };
    expect(carried).to.deep.include({ reported: false, reportTargets: [{ messageId: 'msg-2', workflowId: 'run/2' }] });
    const next = new WorkspaceReports(reportTo, carried, true);
    expect(next.groupedRuns(null)).to.deep.equal([['msg-2', 'run/2']]);
    expect(next.claimRun()).to.equal('run/1');
  });

  it('announces ready once, and not at all when it was announced before', () => {
    const r = new WorkspaceReports(undefined, undefined, false);
    expect(r.announceReady()).to.equal(true);
    expect(r.announceReady()).to.equal(false);
    expect(new WorkspaceReports(undefined, undefined, true).announceReady()).to.equal(false);
  });
});
