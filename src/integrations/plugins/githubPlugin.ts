/**
 * The native `github` plugin: the agent lists the organization's GitHub repositories and
 * comments on their issues and pull requests as the deployment's GitHub App (or token). Only
 * repositories connected to the organization are reachable, whatever the App could reach.
 */
import { GithubApiError } from '../github/api';
import type { NativePlugin, NativeToolContext, ToolOutcome } from './native';

const MAX_COMMENT = 65_536;

async function comment(args: Record<string, unknown>, ctx: NativeToolContext): Promise<ToolOutcome> {
  const repository = String(args.repository).trim();
  const known = await ctx.githubRepositories();
  const match = known.find((r) => r.toLowerCase() === repository.toLowerCase());
  if (!match) {
    return { isError: true, text: `${repository} is not a GitHub repository of this organization; list_repositories names those you can comment on` };
  }
  if (!ctx.github) return { isError: true, text: 'this Hangar deployment has no GitHub credentials' };
  try {
    const posted = await ctx.github.comment(match, args.number as number, args.body as string, { signal: ctx.signal });
    return { text: JSON.stringify({ id: posted.id, html_url: posted.html_url }) };
  } catch (err) {
    if (err instanceof GithubApiError) return { isError: true, text: err.message };
    throw err;
  }
}

export const githubPlugin: NativePlugin = {
  slug: 'github',
  name: 'GitHub',
  description: "Comment on issues and pull requests of the organization's GitHub repositories, as Hangar's GitHub App",
  provides: 'github',
  unavailableReason: (capabilities) => (capabilities.github ? null : 'this deployment has no GitHub App or token (HANGAR_GITHUB_APP_ID and HANGAR_GITHUB_APP_PRIVATE_KEY, or HANGAR_GITHUB_TOKEN)'),
  tools: [
    {
      name: 'list_repositories',
      description: "The organization's GitHub repositories (owner/name) that the other tools can act on.",
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      run: async (_args, ctx) => ({ text: JSON.stringify({ repositories: await ctx.githubRepositories() }) }),
    },
    {
      name: 'comment_on_issue',
      description: 'Post a comment on an issue or a pull request (its conversation) of one of the organization\'s GitHub repositories. Answers the new comment\'s id and URL.',
      inputSchema: {
        type: 'object',
        properties: {
          repository: { type: 'string', minLength: 3, maxLength: 200, description: 'owner/name, as list_repositories names it' },
          number: { type: 'integer', minimum: 1, description: 'The issue or pull request number' },
          body: { type: 'string', minLength: 1, maxLength: MAX_COMMENT, description: 'The comment, in GitHub Markdown' },
        },
        required: ['repository', 'number', 'body'],
        additionalProperties: false,
      },
      run: comment,
    },
  ],
};
