/**
 * The API side of threads routed to workspaces: a receiver that verified a delivery hands its
 * message (or close) here. The delivery id is recorded and the `thread-event/…` workflow started
 * in one transaction, so the receiver answers only once the work is durable in Temporal: a
 * delivery seen before does nothing, and one whose workflow could not be started is not
 * recorded (the provider retries it). Everything else happens in the workflow.
 */
import type { Repositories } from '../../db';
import { invalid } from '../../domain/errors';
import type { ThreadDispatcher } from '../../integrations/threads/types';
import type { WorkflowControl } from '../../temporal/workflowControl';
import type { ThreadEventInput } from '../../../workflows/shared';

const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export function createThreadDispatcher(deps: {
  repos: Pick<Repositories, 'transact' | 'automationInbox'>;
  temporal: Pick<WorkflowControl, 'startThreadEvent'>;
}): ThreadDispatcher {
  /** One delivery may concern several organizations (a repository connected twice): each gets its own. */
  async function dispatch(provider: string, organizationId: string, deliveryId: string, input: ThreadEventInput): Promise<{ duplicate: boolean }> {
    if (!DELIVERY_ID.test(deliveryId)) throw invalid('Invalid webhook payload', 'the delivery id must be 1 to 200 letters, digits, ".", "_", ":" or "-"');
    const unique = `${organizationId}.${deliveryId}`;
    return deps.repos.transact(async (trx) => {
      if ((await deps.repos.automationInbox.recordDelivery({ provider: `thread:${provider}`, id: unique }, trx)) !== 'new') return { duplicate: true };
      await deps.temporal.startThreadEvent(provider, unique, input);
      return { duplicate: false };
    });
  }

  return {
    message: (message) => dispatch(message.provider, message.organizationId, message.deliveryId, { kind: 'message', message }),
    close: (closed) => dispatch(closed.provider, closed.organizationId, `close.${closed.deliveryId}`, { kind: 'close', closed }),
  };
}
