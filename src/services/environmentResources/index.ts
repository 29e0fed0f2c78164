/**
 * Environment sub-resources (variables, files, skills, MCP servers), each reached through
 * its parent environment's access rules (`environments.access`): `global` is an alias,
 * another organization's environment is 404, an org key on a personal one is 403.
 */
import { createSkillsCatalog, type SkillsCatalog } from '../skillsCatalog';
import { createResourceContext, type ResourceDeps } from './context';
import { createFilesService } from './files';
import { createMcpsService } from './mcps';
import { createSkillsService } from './skills';
import { createVariablesService } from './variables';

export type { FileInput, FilePatch } from './files';
export type { McpInput, McpPatch } from './mcps';
export type { SkillInput } from './skills';
export type { VariableInput, VariablePatch } from './variables';

export function createEnvironmentResourcesService(deps: ResourceDeps & { skillsCatalog?: SkillsCatalog }) {
  const ctx = createResourceContext(deps);
  return {
    variables: createVariablesService(ctx),
    files: createFilesService(ctx),
    skills: createSkillsService(ctx, deps.skillsCatalog ?? createSkillsCatalog()),
    mcps: createMcpsService(ctx),
  };
}

export type EnvironmentResourcesService = ReturnType<typeof createEnvironmentResourcesService>;
