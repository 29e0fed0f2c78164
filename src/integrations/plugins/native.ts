/**
 * Native plugins: MCP servers Hangar serves itself, with the deployment's own credentials
 * (the GitHub App …), so a workspace's agent can act on the team's tools without any secret
 * in its container. Each plugin is a list of tools, each with a JSON Schema for its arguments
 * (checked before the tool runs) and a handler.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { GithubIssuesClient } from '../github/issues';
import type { Integration } from '../../domain/plugins';

/** What a native tool may use: the calling workspace's organization and the deployment's clients. */
export interface NativeToolContext {
  organizationId: string;
  workspaceId: string;
  /** The organization's repositories on GitHub, as `owner/name`. */
  githubRepositories(): Promise<string[]>;
  /** Null when the deployment has no GitHub credentials. */
  github: GithubIssuesClient | null;
  signal: AbortSignal;
}

/** What the deployment can serve, for `available`. */
export interface NativeCapabilities {
  github: boolean;
}

export interface ToolOutcome {
  text: string;
  /** A failure the agent should read (a refused repository, GitHub's answer), not a protocol error. */
  isError?: boolean;
}

export interface NativeTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  run(args: Record<string, unknown>, ctx: NativeToolContext): Promise<ToolOutcome>;
}

export interface NativePlugin {
  slug: string;
  name: string;
  description: string;
  provides: Integration;
  tools: NativeTool[];
  /** Why the deployment cannot serve it, or null when it can. */
  unavailableReason(capabilities: NativeCapabilities): string | null;
}

const ajv = new Ajv({ allErrors: false, strict: true });
const validators = new WeakMap<NativeTool, ValidateFunction>();

/** The tool's arguments checked against its schema: null when they fit, else what is wrong. */
export function argumentProblem(tool: NativeTool, args: unknown): string | null {
  let validate = validators.get(tool);
  if (!validate) validators.set(tool, (validate = ajv.compile(tool.inputSchema)));
  if (validate(args)) return null;
  const e = validate.errors![0]!;
  return `${e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'arguments'}: ${e.message ?? 'invalid'}`;
}
