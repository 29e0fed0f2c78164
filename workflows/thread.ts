/**
 * `thread-event/{provider}/{deliveryId}`: one delivery of a thread (a Slack mention, a Linear
 * assignment or comment, a GitHub/GitLab mention). It routes the message to the thread's
 * workspace — starting a new workspace as an abandoned child, or signalling the existing one,
 * which wakes it — and then acknowledges in the thread. A close applies the workspace's
 * lifecycle policy. The agent's answers go back from the workspace's own workflow after each
 * turn (`relayTurn`), not from here.
 */
import { ParentClosePolicy, getExternalWorkflowHandle, log, startChild } from '@temporalio/workflow';
import { threadReplies, threadRouting } from './activities';
import { failureMessage } from './failures';
import { WORKSPACE_SIGNALS, workspaceWorkflowId, type ThreadEventInput } from './shared';
import { childVisibility } from './visibility';
import { workspaceWorkflow } from './workspace';

export async function threadEventWorkflow(input: ThreadEventInput): Promise<void> {
  if (input.kind === 'close') {
    const closing = await threadRouting.closeThread(input.closed);
    if (closing) {
      await getExternalWorkflowHandle(workspaceWorkflowId(closing.replicaId))
        .signal(WORKSPACE_SIGNALS.lifecycle, closing.request)
        .catch((err) => log.warn('the closed thread\'s workspace could not be told', { error: failureMessage(err) }));
    }
    return;
  }
  const routed = await threadRouting.routeThreadMessage(input.message);
  const { routing } = routed;
  // An earlier delivery of the thread already carried this message.
  if (!routing) return;
  if (routed.start) {
    await startChild(workspaceWorkflow, {
      workflowId: workspaceWorkflowId(routing.replicaId),
      args: [{ ...routed.start, firstChatId: routing.chatId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...childVisibility({ replicaId: routing.replicaId }),
    });
  } else {
    // The workspace's workflow runs for as long as the workspace lives (sleeping included); the
    // signal wakes it when it sleeps.
    await getExternalWorkflowHandle(workspaceWorkflowId(routing.replicaId)).signal(WORKSPACE_SIGNALS.workRequested, { chatId: routing.chatId });
  }
  await threadReplies
    .acknowledgeThread({ organizationId: input.message.organizationId, bindingId: routed.bindingId, routing })
    .catch((err) => log.warn('the thread could not be acknowledged', { error: failureMessage(err) }));
}
