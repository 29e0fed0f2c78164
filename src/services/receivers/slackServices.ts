/**
 * Slack's API-side use cases, built together so the shared composition (`createServices`) gains
 * one line: the Events API receiver (handing messages to the shared thread dispatcher and
 * channel messages to the shared automation inbox) and thread attachment.
 */
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import type { ThreadDispatcher } from '../../integrations/threads/types';
import type { Logger } from '../../logger';
import type { AutomationInbox } from '../automations/inbox';
import { createSlackAutomationIntake } from './slackAutomationIntake';
import { createSlackReceiver } from './slack';
import { createSlackThreadsService } from './slackThreads';

/** A url_verification is tried against at most this many connected Slack apps. */
const VERIFICATION_CANDIDATES = 500;

export function createSlackServices(deps: { repos: Repositories; secretBox: SecretBox; threads: ThreadDispatcher; inbox: AutomationInbox; logger: Logger }) {
  const { repos } = deps;
  return {
    slackReceiver: createSlackReceiver({
      repos,
      secretBox: deps.secretBox,
      threads: deps.threads,
      automations: createSlackAutomationIntake({ automations: repos.automations, inbox: deps.inbox }),
      slackConnections: () => repos.connections.listSealedByProvider('slack', VERIFICATION_CANDIDATES),
      logger: deps.logger.child({ component: 'slack' }),
    }),
    slackThreads: createSlackThreadsService({ repos }),
  };
}
