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
import type { BodyOf } from '../../schemas/common';
import { defineRoute, type JsonSchema, type Route } from '../route';

const tag = 'Environments';

interface ResourceService<Create, Update> {
  list(actor: Actor, environmentId: string): Promise<unknown[]>;
  create(actor: Actor, environmentId: string, input: Create): Promise<unknown>;
  update?(actor: Actor, environmentId: string, id: string, input: Update): Promise<unknown>;
  remove(actor: Actor, environmentId: string, id: string): Promise<void>;
}

/**
 * GET and POST on the collection, PATCH (when the resource has an update body) and DELETE by
 * id. The service must take what the resource's bodies admit: that is checked where the
 * resource is named, with its schemas' own types (a body type derived inside this generic
 * function would be too deep for the compiler), so the handlers below pass the validated
 * bodies on as those types.
 */
function resourceRoutes<C extends JsonSchema, U extends JsonSchema | undefined>(spec: {
  segment: string;
  /** Operation id stem, e.g. `EnvironmentVariable`. */
  stem: string;
  what: string;
  schemas: ResourceSchemas<C, U>;
  service: ResourceService<BodyOf<C>, BodyOf<NonNullable<U>>>;
}): Route[] {
  const { service } = spec;
  const schemas: ResourceSchemas = spec.schemas;
  const collection = `/v1/environments/:environmentId/${spec.segment}`;
  const item = `${collection}/:id`;
  const routes: Route[] = [
    defineRoute({
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
    defineRoute({
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
      handler: async ({ actor, params, body }) => ({ [schemas.itemKey]: await service.create(actor, params.environmentId, body as BodyOf<C>) }),
    }),
  ];
  const updateBody = schemas.updateBody;
  if (updateBody && service.update) {
    const update = service.update.bind(service);
    routes.push(
      defineRoute({
        method: 'patch',
        path: item,
        operationId: `update${spec.stem}`,
        summary: `Update a ${spec.what}`,
        tag,
        auth: 'apiKey',
        params: resourceParams,
        body: updateBody,
        response: { status: 200, description: `The updated ${spec.what}`, schema: schemas.one },
        errors: [400, 401, 403, 404, 409],
        handler: async ({ actor, params, body }) => ({ [schemas.itemKey]: await update(actor, params.environmentId, params.id, body as BodyOf<NonNullable<U>>) }),
      }),
    );
  }
  routes.push(
    defineRoute({
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
    defineRoute({
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
    defineRoute({
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
