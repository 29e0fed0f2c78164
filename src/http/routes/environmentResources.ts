import { successSchema } from '../../schemas/common';
import type { RepoSkillsService } from '../../services/environmentResources/repoSkills';
import {
  fileResource,
  mcpResource,
  repoSkillsSchema,
  resourceListParams,
  resourceParams,
  skillResource,
  skillSearchQuery,
  skillSearchResult,
  variableResource,
  type ResourceSchemas,
} from '../../schemas/environmentResources';
import type { EnvironmentResourcesService } from '../../services/environmentResources';
import type { Actor } from '../../domain/actor';
import { defineRoute, type Route } from '../route';

const tag = 'Environments';

type ListParams = { environmentId: string };
type ItemParams = { environmentId: string; id: string };

interface ResourceService<Create, Update> {
  list(actor: Actor, environmentId: string): Promise<unknown[]>;
  create(actor: Actor, environmentId: string, input: Create): Promise<unknown>;
  update?(actor: Actor, environmentId: string, id: string, input: Update): Promise<unknown>;
  remove(actor: Actor, environmentId: string, id: string): Promise<void>;
}

/** GET and POST on the collection, PATCH (when the resource has one) and DELETE by id. */
function resourceRoutes<Create, Update>(spec: {
  segment: string;
  /** Operation id stem, e.g. `EnvironmentVariable`. */
  stem: string;
  what: string;
  schemas: ResourceSchemas;
  service: ResourceService<Create, Update>;
}): Route[] {
  const { service, schemas } = spec;
  const collection = `/v1/environments/:environmentId/${spec.segment}`;
  const item = `${collection}/:id`;
  const routes: Route[] = [
    defineRoute<ListParams>({
      method: 'get',
      path: collection,
      operationId: `list${spec.stem}s`,
      summary: `List the ${spec.what}s of an environment (by id or \`global\`)`,
      tag,
      auth: 'apiKey',
      params: resourceListParams,
      response: { status: 200, description: `Every ${spec.what} of the environment`, schema: schemas.list },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => ({ [schemas.listKey]: await service.list(actor, params.environmentId) }),
    }),
    defineRoute<ListParams, Record<string, never>, Create>({
      method: 'post',
      path: collection,
      operationId: `create${spec.stem}`,
      summary: `Add a ${spec.what} to an environment`,
      tag,
      auth: 'apiKey',
      params: resourceListParams,
      body: schemas.createBody,
      response: { status: 201, description: `The created ${spec.what}`, schema: schemas.one },
      errors: [400, 401, 403, 404, 409],
      handler: async ({ actor, params, body }) => ({ [schemas.itemKey]: await service.create(actor, params.environmentId, body) }),
    }),
  ];
  if (schemas.updateBody && service.update) {
    const update = service.update.bind(service);
    routes.push(
      defineRoute<ItemParams, Record<string, never>, Update>({
        method: 'patch',
        path: item,
        operationId: `update${spec.stem}`,
        summary: `Update a ${spec.what}`,
        tag,
        auth: 'apiKey',
        params: resourceParams,
        body: schemas.updateBody,
        response: { status: 200, description: `The updated ${spec.what}`, schema: schemas.one },
        errors: [400, 401, 403, 404, 409],
        handler: async ({ actor, params, body }) => ({ [schemas.itemKey]: await update(actor, params.environmentId, params.id, body) }),
      }),
    );
  }
  routes.push(
    defineRoute<ItemParams>({
      method: 'delete',
      path: item,
      operationId: `delete${spec.stem}`,
      summary: `Remove a ${spec.what} from an environment`,
      tag,
      auth: 'apiKey',
      params: resourceParams,
      response: { status: 200, description: 'Deleted', schema: successSchema },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => {
        await service.remove(actor, params.environmentId, params.id);
        return { success: true };
      },
    }),
  );
  return routes;
}

export function environmentResourceRoutes(resources: EnvironmentResourcesService, repoSkills: RepoSkillsService): Route[] {
  return [
    ...resourceRoutes({
      segment: 'variables',
      stem: 'EnvironmentVariable',
      what: 'variable',
      schemas: variableResource,
      service: resources.variables,
    }),
    ...resourceRoutes({
      segment: 'files',
      stem: 'EnvironmentFile',
      what: 'file',
      schemas: fileResource,
      service: resources.files,
    }),
    ...resourceRoutes({
      segment: 'skills',
      stem: 'EnvironmentSkill',
      what: 'skill',
      schemas: skillResource,
      service: resources.skills,
    }),
    ...resourceRoutes({
      segment: 'mcps',
      stem: 'EnvironmentMcp',
      what: 'MCP server',
      schemas: mcpResource,
      service: resources.mcps,
    }),
    defineRoute<Record<string, never>, { q: string }>({
      method: 'get',
      path: '/v1/environment-skills/search',
      operationId: 'searchEnvironmentSkills',
      summary: 'Search the skills directory (an empty `q` lists popular skills)',
      tag,
      auth: 'apiKey',
      query: skillSearchQuery,
      response: { status: 200, description: 'Matching skills, best first', schema: skillSearchResult },
      errors: [400, 401],
      handler: ({ query }) => ({ skills: resources.skills.search(query.q) }),
    }),
    defineRoute<{ environmentId: string }>({
      method: 'get',
      path: '/v1/environments/:environmentId/repo-skills',
      operationId: 'listRepoSkills',
      summary: "Skills, agents, commands and prompts committed to the environment's repositories, read live from their default branch",
      tag,
      auth: 'apiKey',
      params: resourceListParams,
      response: { status: 200, description: 'What was found; `error` says what could not be read', schema: repoSkillsSchema },
      errors: [400, 401, 403, 404],
      handler: ({ actor, params }) => repoSkills.list(actor, params.environmentId),
    }),
  ];
}
