/** The AI gateway's upstreams, and the model catalog's providers. */
import type { AgentId } from '../agents/catalog';
import { integer, section, url } from './schema';

const upstream = (fallback: string, description: string) => url({ default: fallback, base: true, description });

export const gateway = section(
  'AI gateway and models',
  {
    HANGAR_AGENT_1_BASE_URL: upstream('https://api.anthropic.com', 'AI gateway upstream of agent_1 (Anthropic Messages API)'),
    HANGAR_AGENT_2_BASE_URL: upstream('https://api.openai.com', 'AI gateway upstream of agent_2 (OpenAI API)'),
    HANGAR_AGENT_3_BASE_URL: upstream('https://api.cursor.com', 'AI gateway upstream of agent_3'),
    HANGAR_AGENT_4_BASE_URL: upstream('https://openrouter.ai/api', 'AI gateway upstream of agent_4 (OpenAI-compatible)'),
    HANGAR_AGENT_5_BASE_URL: upstream('https://openrouter.ai/api', 'AI gateway upstream of agent_5 (OpenAI-compatible)'),
    HANGAR_SOURCE_A_URL: url({ description: 'a model provider base URL (`GET {url}/v1/models`); the built-in lists without it' }),
    HANGAR_SOURCE_B_URL: url({ description: 'a model provider base URL (`GET {url}/api/v1/models`); the built-in lists without it' }),
    HANGAR_MODEL_CATALOG_TTL_MS: integer({ default: 300_000, min: 1000, max: 86_400_000, description: 'how long a fetched model catalog is served before a background refresh' }),
    HANGAR_MODEL_PROVIDER_TIMEOUT_MS: integer({ default: 5000, min: 100, max: 60_000, description: 'how long a model provider may take to answer' }),
  },
  {},
  (read) => ({
    /** The AI gateway's upstream per agent (`HANGAR_AGENT_N_BASE_URL`), without a trailing slash. */
    agentBaseUrls: {
      agent_1: read.get('HANGAR_AGENT_1_BASE_URL'),
      agent_2: read.get('HANGAR_AGENT_2_BASE_URL'),
      agent_3: read.get('HANGAR_AGENT_3_BASE_URL'),
      agent_4: read.get('HANGAR_AGENT_4_BASE_URL'),
      agent_5: read.get('HANGAR_AGENT_5_BASE_URL'),
    } satisfies Record<AgentId, string>,
    /** Model catalog providers (`GET {url}/v1/models`, `GET {url}/api/v1/models`); unset: built-in lists only. */
    sourceABaseUrl: read.get('HANGAR_SOURCE_A_URL'),
    sourceBBaseUrl: read.get('HANGAR_SOURCE_B_URL'),
    /** How long a fetched catalog is served before a background refresh. */
    modelCatalogTtlMs: read.get('HANGAR_MODEL_CATALOG_TTL_MS'),
    modelProviderTimeoutMs: read.get('HANGAR_MODEL_PROVIDER_TIMEOUT_MS'),
  }),
);
