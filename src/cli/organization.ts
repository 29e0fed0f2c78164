/** The caller and what the organization offers: whoami, repositories, environments and automations. */
import { flag, stringOption, subcommand, type Command, type Values } from './command';
import type { CommandContext } from './context';
import { integerOption, oneLine, positional, shortTime, table, UsageError } from './format';

const paging = (values: Values) => ({ page: integerOption('page', stringOption(values, 'page')), limit: integerOption('limit', stringOption(values, 'limit')) });
const pageOptions = { page: { type: 'string' as const }, limit: { type: 'string' as const } };

function scopeOption(values: Values): 'org' | 'user' | 'all' | undefined {
  const scope = stringOption(values, 'scope');
  if (scope !== undefined && scope !== 'org' && scope !== 'user' && scope !== 'all') throw new UsageError('--scope must be org, user or all');
  return scope;
}

function pageFooter(ctx: CommandContext, answer: { page: number; totalPages: number; total: number }, what: string): void {
  if (answer.totalPages > 1) ctx.out.text(`page ${answer.page} of ${answer.totalPages} (${answer.total} ${what}; --page N for more)`);
}

const whoami: Command = {
  name: 'whoami',
  usage: ['whoami'],
  summary: 'The user of the API key (personal keys; an organization key has no user)',
  async run(ctx) {
    const answer = await ctx.client.call(ctx.client.api.GET('/v1/user/profile'));
    ctx.out.data(answer);
    const { profile } = answer;
    ctx.out.text(`${profile.displayName} <${profile.email}>  user ${profile.userId}  at ${ctx.connection.baseUrl}`);
  },
};

const repos: Command = {
  name: 'repos',
  usage: ['repos [list]', 'repos sets'],
  summary: "The organization's connected repositories, or its repository sets",
  async run(ctx, _values, positionals) {
    if (subcommand(positionals, ['list', 'sets'] as const, 'list') === 'sets') {
      const answer = await ctx.client.call(ctx.client.api.GET('/v1/replica/repository-sets'));
      ctx.out.data(answer);
      if (answer.repository_sets.length === 0) return void ctx.out.text('No repository sets.');
      ctx.out.text(table(['ID', 'NAME', 'REPOSITORIES', 'DESCRIPTION'], answer.repository_sets.map((s) => [s.id, s.name, s.repositories.map((r) => r.name).join(', '), oneLine(s.description ?? '', 60)])));
      return;
    }
    const answer = await ctx.client.call(ctx.client.api.GET('/v1/replica/repositories'));
    ctx.out.data(answer);
    if (answer.repositories.length === 0) return void ctx.out.text('No repositories.');
    ctx.out.text(table(['ID', 'NAME', 'BRANCH', 'URL'], answer.repositories.map((r) => [r.id, r.name, r.default_branch, r.url])));
  },
};

const env: Command = {
  name: 'env',
  usage: ['env [list] [--scope org|user|all] [--page N] [--limit N]', 'env get <id|global>'],
  summary: 'Environments (what a workspace starts with: repositories, variables, hooks)',
  options: { scope: { type: 'string' }, ...pageOptions },
  async run(ctx, values, positionals) {
    if (subcommand(positionals, ['list', 'get'] as const, 'list') === 'get') {
      const id = positional(positionals, 1, 'id');
      const answer = await ctx.client.call(ctx.client.api.GET('/v1/environments/{id}', { params: { path: { id } } }));
      ctx.out.data(answer);
      const e = answer.environment;
      ctx.out.text(
        [
          `id:             ${e.id}`,
          `name:           ${e.name}${e.is_global ? ' (global)' : ''}`,
          `scope:          ${e.user_id ? 'personal' : 'organization'}`,
          `description:    ${e.description ?? '-'}`,
          `repository:     ${e.repository_id ?? '-'}`,
          `repository set: ${e.repository_set_id ?? '-'}`,
          `variables:      ${e.variable_count ?? 0}   files: ${e.file_count ?? 0}   skills: ${e.skill_count ?? 0}   MCP servers: ${e.mcp_count ?? 0}`,
          `updated:        ${shortTime(e.updated_at)}`,
        ].join('\n'),
      );
      return;
    }
    const answer = await ctx.client.call(ctx.client.api.GET('/v1/environments', { params: { query: { scope: scopeOption(values), ...paging(values) } } }));
    ctx.out.data(answer);
    if (answer.environments.length === 0) return void ctx.out.text('No environments.');
    ctx.out.text(
      table(
        ['ID', 'NAME', 'SCOPE', 'REPOSITORY', 'REPOSITORY SET'],
        answer.environments.map((e) => [e.id, e.name, e.is_global ? 'global' : e.user_id ? 'personal' : 'org', e.repository_id, e.repository_set_id]),
      ),
    );
    pageFooter(ctx, answer, 'environments');
  },
};

const automation: Command = {
  name: 'automation',
  usage: [
    'automation [list] [--scope org|user|all] [--enabled|--disabled] [--search TEXT] [--page N] [--limit N]',
    'automation get <id>',
    'automation runs <id> [--page N] [--limit N]',
    'automation enable|disable <id>',
    'automation trigger <id> [--payload JSON]',
  ],
  summary: 'Automations: list, inspect, their runs, switch on or off, fire by hand',
  options: { scope: { type: 'string' }, enabled: { type: 'boolean' }, disabled: { type: 'boolean' }, search: { type: 'string' }, payload: { type: 'string' }, ...pageOptions },
  async run(ctx, values, positionals) {
    const action = subcommand(positionals, ['list', 'get', 'runs', 'enable', 'disable', 'trigger'] as const, 'list');
    const api = ctx.client.api;
    if (action === 'list') {
      if (flag(values, 'enabled') && flag(values, 'disabled')) throw new UsageError('--enabled and --disabled exclude each other');
      const enabled = flag(values, 'enabled') ? true : flag(values, 'disabled') ? false : undefined;
      const answer = await ctx.client.call(api.GET('/v1/automations', { params: { query: { scope: scopeOption(values), enabled, search: stringOption(values, 'search'), ...paging(values) } } }));
      ctx.out.data(answer);
      if (answer.automations.length === 0) return void ctx.out.text('No automations.');
      ctx.out.text(
        table(
          ['ID', 'NAME', 'ON', 'TRIGGERS', 'NEXT RUN'],
          answer.automations.map((a) => [a.id, a.name, a.enabled ? 'yes' : 'no', a.triggers.map((t) => t.type).join(','), shortTime(a.cron_next_fire_at)]),
        ),
      );
      return pageFooter(ctx, answer, 'automations');
    }
    const id = positional(positionals, 1, 'id');
    const path = { params: { path: { id } } };
    switch (action) {
      case 'get': {
        const answer = await ctx.client.call(api.GET('/v1/automations/{id}', path));
        ctx.out.data(answer);
        const a = answer.automation;
        ctx.out.text(
          [
            `id:          ${a.id}`,
            `name:        ${a.name}`,
            `enabled:     ${a.enabled ? 'yes' : 'no'}`,
            `triggers:    ${a.triggers.map((t) => t.type).join(', ')}${a.cron_expression ? ` (${a.cron_expression}${a.cron_timezone ? ` ${a.cron_timezone}` : ''})` : ''}`,
            `next run:    ${shortTime(a.cron_next_fire_at)}`,
            `environment: ${a.environment_id}`,
            `agent:       ${a.agent_provider ?? 'organization default'}${a.model ? ` (${a.model})` : ''}`,
            `prompt:      ${oneLine(a.prompt, 200)}`,
          ].join('\n'),
        );
        return;
      }
      case 'runs': {
        const answer = await ctx.client.call(api.GET('/v1/automations/{id}/executions', { params: { path: { id }, query: paging(values) } }));
        ctx.out.data(answer);
        if (answer.executions.length === 0) return void ctx.out.text('No runs yet.');
        ctx.out.text(
          table(
            ['RUN', 'TRIGGERED', 'STATUS', 'WORKSPACE', 'ERROR'],
            answer.executions.map((e) => [e.id, shortTime(e.triggered_at), e.status, e.workspace_id, oneLine(e.error ?? '', 60)]),
          ),
        );
        return pageFooter(ctx, answer, 'runs');
      }
      case 'enable':
      case 'disable': {
        const answer = await ctx.client.call(api.PATCH('/v1/automations/{id}', { ...path, body: { enabled: action === 'enable' } }));
        ctx.out.data(answer);
        ctx.out.text(`${answer.automation.name}: ${answer.automation.enabled ? 'enabled' : 'disabled'}`);
        return;
      }
      case 'trigger': {
        const raw = stringOption(values, 'payload');
        let payload: Record<string, never> | undefined;
        if (raw !== undefined) {
          try {
            payload = JSON.parse(raw) as Record<string, never>;
          } catch {
            throw new UsageError('--payload must be JSON (an object)');
          }
          if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new UsageError('--payload must be a JSON object');
        }
        const answer = await ctx.client.call(api.POST('/v1/automations/{id}/trigger', { ...path, body: payload ? { payload } : {} }));
        ctx.out.data(answer);
        ctx.out.text(`run ${answer.execution_id}: ${answer.workspace_id ? `workspace ${answer.workspace_id}` : 'its workspace is not created yet (automation runs shows it)'}`);
        return;
      }
    }
  },
};

export const organizationCommands: Command[] = [whoami, repos, env, automation];
