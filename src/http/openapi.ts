/** Builds the OpenAPI 3.1 document from the same route declarations the router mounts. */
import { errorBodySchema } from '../schemas/common';
import type { JsonSchema, Route } from './route';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (details name the field and rule)',
  401: 'Invalid or missing API key',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  415: 'Body is not JSON',
  422: 'The request cannot be processed as sent (details say why)',
  429: 'Too many requests',
  503: 'A dependency is unavailable',
};

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parameters(route: Route) {
  const out: unknown[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, s] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: s });
    }
  }
  return out;
}

export function buildOpenApi(routes: Route[], info: { version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {
      [route.response.status]: {
        description: route.response.description,
        ...(route.response.schema || route.response.contentType
          ? { content: { [route.response.contentType ?? 'application/json']: { schema: route.response.schema ?? { type: 'string' } } } }
          : {}),
      },
    };
    if (route.response.alternate) {
      const { status, description } = route.response.alternate;
      responses[status] = { ...(responses[route.response.status] as object), description };
    }
    if (route.response.reusedBodies) {
      responses[304] = { description: 'Not modified: If-None-Match named the ETag of the current answer' };
    }
    for (const status of route.errors) {
      responses[status] = { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters: parameters(route),
      responses,
    };
    if (route.auth === 'none') operation.security = [];
    if (route.auth === 'apiKeyOrEngine') operation.security = [{ bearerAuth: [] }, { engineSecret: [], workspaceId: [] }];
    if (route.body) {
      operation.requestBody = { required: !route.bodyOptional, content: { 'application/json': { schema: route.body } } };
    }
    (paths[toOpenApiPath(route.path)] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hangar — Workspace Automation Service API',
      version: info.version,
      description: 'Self-hostable implementation of the Workspace Automation Service API. All operations use `Authorization: Bearer <API key>`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        engineSecret: { type: 'http', scheme: 'bearer', description: "A workspace's engine secret (with X-Workspace-Id)" },
        workspaceId: { type: 'apiKey', in: 'header', name: 'X-Workspace-Id' },
      },
      schemas: { Error: errorBodySchema },
    },
    paths,
  };
}
