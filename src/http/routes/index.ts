import type { StreamLimits } from '../../config';
import type { EventBus } from '../../events/bus';
import type { Logger } from '../../logger';
import type { Services } from '../../services';
import { buildOpenApi } from '../openapi';
import type { Route } from '../route';
import { createStreamSlots, limitStreams } from '../streamLimits';
import { environmentResourceRoutes } from './environmentResources';
import { accountRoutes } from './account';
import { aiGatewayRoutes } from './aiGateway';
import { automationRoutes } from './automations';
import { automationWebhookRoutes } from './receivers/automationWebhooks';
import { credentialsRoutes } from './credentials';
import { environmentRoutes } from './environments';
import { hookRoutes } from './hooks';
import { metaRoutes, type ReadinessProbe } from './meta';
import { modelsRoutes } from './models';
import { organizationRoutes } from './organization';
import { replicaChatRoutes } from './replicaChats';
import { replicaEventRoutes } from './replicaEvents';
import { replicaRoutes } from './replicas';
import { repositoryRoutes } from './repositories';
import { terminalRoutes } from './terminals';
import { downloadRoutes } from './downloads';
import { skillsRegistryRoutes } from './skillsRegistries';
import { warmPoolStreamRoutes } from './warmPoolStream';
import { mediaRoutes } from './media';
import { analyticsRoutes } from './analytics';
import { previewRoutes } from './previews';
import { pluginRoutes } from './plugins';
import { connectionRoutes } from './connections';
import { consoleRoutes } from './console';
import { slackRoutes } from './receivers/slack';
import { presenceRoutes } from './presence';
import { organizationEventRoutes } from './organizationEvents';
import { sentryRoutes } from './receivers/sentry';
import { linearRoutes } from './receivers/linear';
import { mcpRoutes } from './mcp';

export function allRoutes(deps: {
  services: Services;
  /** The hook-test stream follows a test's output on the bus. */
  bus: EventBus;
  logger: Logger;
  probes: ReadinessProbe[];
  version: string;
  legacyCreateTimeoutMs: number;
  /** Absolute links (downloads) use it; else the request's own origin. */
  publicBaseUrl?: string;
  /** Caps on this process's open event streams and their buffers. */
  streams: StreamLimits;
}): Route[] {
  const { services } = deps;
  // Static paths (`/v1/replica/repositories`) come before parameterised ones (`/v1/replica/:id`).
  const routes: Route[] = [
    ...repositoryRoutes(services.repositories),
    ...replicaRoutes(services.replicas, { legacyCreateTimeoutMs: deps.legacyCreateTimeoutMs }),
    ...replicaEventRoutes(services.replicas, { logger: deps.logger, presence: services.presence }),
    ...replicaChatRoutes(services.replicas),
    ...terminalRoutes(services.terminals),
    ...environmentRoutes(services.environments),
    ...environmentResourceRoutes(services.environmentResources, services.repoSkills),
    ...hookRoutes(services.hooks, deps.bus, deps.logger),
    ...credentialsRoutes(services.credentials),
    ...organizationRoutes(services.organizationSettings),
    ...modelsRoutes(services.modelCatalog),
    ...aiGatewayRoutes(services.aiGateway),
    ...accountRoutes(services.userAccount),
    ...automationWebhookRoutes(services.automationIntake),
    ...automationRoutes(services.automations),
    ...downloadRoutes(services.downloads, { publicBaseUrl: deps.publicBaseUrl }),
    ...skillsRegistryRoutes(services.skillsRegistries),
    ...warmPoolStreamRoutes(services.warmPoolStream, deps.bus, deps.logger),
    ...mediaRoutes(services.media),
    ...analyticsRoutes(services.analytics),
    ...previewRoutes(services.previews),
    ...pluginRoutes(services.plugins),
    ...connectionRoutes(services.connections),
    ...slackRoutes(services.slackReceiver, services.slackThreads),
    ...presenceRoutes(services.presence),
    ...organizationEventRoutes(services.presence, { logger: deps.logger }),
    ...sentryRoutes(services.sentryIntake),
    ...linearRoutes(services.linearWebhooks),
    ...mcpRoutes({ version: deps.version }),
  ];
  const api = limitStreams(routes, createStreamSlots(deps.streams), deps.streams.bufferBytes);
  const meta = metaRoutes({ probes: deps.probes, openapi: () => buildOpenApi(api, { version: deps.version }) });
  // The console, like the docs page, is not part of the API's document.
  return [...meta, ...consoleRoutes(), ...api];
}
