/**
 * Slack's API-side use cases, built together so the shared composition (`createServices`) gains
 * one line: the Events API receiver and thread attachment. The thread dispatcher and the
 * automation inbox are stateless over the repositories and Temporal, so these instances behave
 * exactly as the ones the other receivers use.
 */
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/gateway';
import { createAutomationInbox } from '../automations/inbox';
import { createSlackAutomationIntake } from '../automations/slackIntake';
import { createSlackReceiver } from './slack';
import { createSlackThreadsService } from './slackThreads';
import { createThreadDispatcher } from './threads';

/** A url_verification is tried against at most this many connected Slack apps. */
const VERIFICATION_CANDIDATES = 500;

export function createSlackServices(deps: { repos: Repositories; secretBox: SecretBox; temporal: TemporalGateway; logger: Logger }) {
  const { repos, temporal } = deps;
  const logger = deps.logger.child({ component: 'slack' });
  return {
    slackReceiver: createSlackReceiver({
      repos,
      secretBox: deps.secretBox,
      threads: createThreadDispatcher({ repos, temporal }),
      automations: createSlackAutomationIntake({ automations: repos.automations, inbox: createAutomationInbox({ repos, temporal, logger }) }),
      slackConnections: () => repos.connections.listSealedByProvider('slack', VERIFICATION_CANDIDATES),
      logger,
    }),
    slackThreads: createSlackThreadsService({ repos }),
  };
}
