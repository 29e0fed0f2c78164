/**
 * Every activity the worker registers, built from one set of dependencies. Each area's factory
 * takes only the part it needs (`Pick<ActivityDeps, …>`), so tests hand it just that.
 */
import type { OutboundPolicy } from '../src/integrations/outbound/addressGuard';
import type { SecretBox } from '../src/crypto/secretBox';
import type { Repositories } from '../src/db';
import type { EventBus } from '../src/events/bus';
import type { ReplicaEventEmitter } from '../src/events/replicaEvents';
import type { GithubChecksClient } from '../src/integrations/github/checks';
import type { GithubContentsClient } from '../src/integrations/github/contents';
import type { Logger } from '../src/logger';
import type { SandboxRuntime } from '../src/sandbox';
import type { WorkspaceRuntime } from '../src/sandbox/workspace';
import type { CanvasReader } from '../src/sandbox/workspace/canvas';
import type { BlobStore } from '../src/storage';
import { createCanvasActivities } from './canvas';
import { createAgentTurnActivities } from './agentTurns';
import { createAutomationCheckActivities } from './automationChecks';
import { createAutomationCleanupActivities } from './automationCleanup';
import { createAutomationEventActivities } from './automationEvents';
import { createAutomationRunActivities } from './automationRuns';
import { createAutomationScheduleActivities } from './automationSchedule';
import { createHookActivities } from './hooks';
import { createHostActivities } from './hosts';
import { createWarmPoolActivities } from './warmPool';
import { createThreadActivities } from './threads';
import { createWorkspaceActivities, type CredentialResolver } from './workspace';
import { createWorkspaceRecords } from '../src/worker/workspaceRecords';
import type { ThreadAdapter } from '../src/integrations/threads/types';

export interface ActivityDeps {
  repos: Repositories;
  secretBox: SecretBox;
  /** The replica events stream (rows plus notifications). */
  events: ReplicaEventEmitter;
  bus: EventBus;
  /** Single-use hook sandboxes. */
  sandbox: SandboxRuntime;
  /** Long-lived workspace containers. */
  runtime: WorkspaceRuntime;
  credentials: CredentialResolver;
  github: GithubChecksClient;
  /** Reads the environments' skills from GitHub (with `HANGAR_GITHUB_TOKEN` when set). */
  githubContents: GithubContentsClient;
  /** Stops a workflow by id (a deleted automation's); false when it was not running. */
  workflows: { terminateWorkflow(workflowId: string, reason: string): Promise<boolean> };
  logger: Logger;
  hookTimeoutMs: number;
  /** Runs every agent as this executable (the test agent); unset in production. */
  agentExecutable?: string;
  /** A turn whose agent prints nothing this long is stopped as stalled. */
  agentIdleTimeoutMs: number;
  /** The service's public URL, for links in checks. */
  publicBaseUrl?: string;
  /** Hangar's API as workspaces reach it: their agents' AI gateway and `HANGAR_API_URL`. */
  workspaceApiUrl: string;
  /** What a new workspace's workflow is given. */
  timings: { idleMs: number; archiveAfterMs: number; historyLimit: number };
  /** Media and canvas copies (the same store the API reads). */
  blobs: BlobStore;
  /** Workspaces' canvas directories, through the Docker archive API. */
  canvas: CanvasReader;
  /** Where user-chosen URLs (webhook_url) may be reached. */
  outbound: OutboundPolicy;
  /** How each provider answers in its threads (Slack, Linear, GitHub, GitLab). */
  threadAdapters: ThreadAdapter[];
  /** This worker's Docker host (`HANGAR_WORKER_HOST_ID`): recorded on what it builds. */
  hostId: string;
  /** Schedule-to-start timeout of container work on a host, and the liveness window of placement. */
  hostTimeoutMs: number;
  /** `HANGAR_WORKSPACE_VOLUMES_SHARED`: placement marks workspaces movable to another host when theirs is lost. */
  workspaceVolumesShared?: boolean;
  /** Aborted when this worker begins to stop: its running agent turns hand over to the next worker. */
  draining?: AbortSignal;
}

/**
 * Every activity, and those that work on this host's Docker engine (`onHost`): the groups
 * whose proxies `onHost` in workflows/activities.ts makes, so a workflow can send a container's
 * work to the worker of the host it placed it on. That worker registers them on the host's own
 * queue as well as the shared one.
 */
export function createActivities(deps: ActivityDeps) {
  const as = (component: string) => ({ ...deps, logger: deps.logger.child({ component }) });
  const records = createWorkspaceRecords(deps);
  const onHost = {
    ...createWorkspaceActivities(as('workspace-activities')),
    ...createAgentTurnActivities(as('workspace-activities')),
    ...createWarmPoolActivities(as('workspace-activities')),
    ...createCanvasActivities(deps),
  };
  const activities = {
    ...onHost,
    ...createHookActivities(as('hook-activities')),
    ...createAutomationRunActivities({ ...as('automation-runs'), records }),
    ...createAutomationScheduleActivities(deps),
    ...createAutomationEventActivities(as('automation-events')),
    ...createAutomationCheckActivities(as('automation-checks')),
    ...createAutomationCleanupActivities(as('automation-cleanup')),
    ...createThreadActivities({ ...as('threads'), records, adapters: deps.threadAdapters }),
    ...createHostActivities(as('placement')),
  };
  return { activities, onHost };
}
