/**
 * Workspaces (replicas): list, get, create, send, read and delete, through the typed client.
 * `create` and `send` follow the events stream until the workspace is ready or the turn ended.
 */
import type { operations } from '../../client/src';
import { flag, stringOption, type Command, type Values } from './command';
import type { CommandContext } from './context';
import { CommandFailure, integerOption, oneLine, positional, shortTime, summarizeAgentEvent, table, UsageError } from './format';
import { followReplica, type FollowHandle, type ProgressGoal } from './progress';

/** Answers at once with the workspace preparing, instead of holding the request until it settles. */
const API_VERSION = '2026-05-17';

type CreateBody = operations['createReplica']['requestBody']['content']['application/json'];
type SendBody = NonNullable<operations['sendReplicaMessage']['requestBody']>['content']['application/json'];
type Agent = NonNullable<CreateBody['coding_agent']>;

const AGENTS: readonly Agent[] = ['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5'];

function agentOption(values: Values): Agent | undefined {
  const agent = stringOption(values, 'agent');
  if (agent !== undefined && !(AGENTS as readonly string[]).includes(agent)) throw new UsageError(`--agent must be one of ${AGENTS.join(', ')}`);
  return agent as Agent | undefined;
}

function enumOption<T extends string>(values: Values, name: string, allowed: readonly T[]): T | undefined {
  const value = stringOption(values, name);
  if (value !== undefined && !(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T | undefined;
}

/** `-` reads the message from standard input (long prompts, pipes). */
async function messageText(raw: string): Promise<string> {
  if (raw !== '-') return raw;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new UsageError('the message read from standard input is empty');
  return text;
}

async function waitFor(ctx: CommandContext, handle: FollowHandle, goal: ProgressGoal, what: string): Promise<number> {
  const outcome = await handle.run(goal, (line) => ctx.out.progress(line));
  if (!outcome.ok) throw new CommandFailure(`${what} failed: ${outcome.error ?? 'unknown error'}`);
  return 0;
}

type ListItem = operations['listReplicas']['responses'][200]['content']['application/json']['replicas'][number];

function replicaRows(replicas: ListItem[]) {
  return replicas.map((r) => [r.id, r.name, r.status, r.source, shortTime(r.created_at), shortTime(r.last_activity_at)]);
}

const list: Command = {
  name: 'list',
  usage: ['list [--status STATUS] [--source SOURCE] [--page N] [--limit N]'],
  summary: 'Your workspaces, newest first',
  options: { status: { type: 'string' }, source: { type: 'string' }, page: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, values) {
    const answer = await ctx.client.call(
      ctx.client.api.GET('/v1/replica', {
        params: {
          query: {
            status: enumOption(values, 'status', ['preparing', 'active', 'sleeping', 'archived', 'error'] as const),
            source: enumOption(values, 'source', ['api', 'dashboard', 'automation', 'github', 'gitlab', 'slack', 'linear'] as const),
            page: integerOption('page', stringOption(values, 'page')),
            limit: integerOption('limit', stringOption(values, 'limit')),
          },
        },
      }),
    );
    ctx.out.data(answer);
    if (answer.replicas.length === 0) return void ctx.out.text('No workspaces.');
    ctx.out.text(table(['ID', 'NAME', 'STATUS', 'SOURCE', 'CREATED', 'LAST ACTIVITY'], replicaRows(answer.replicas)));
    if (answer.total_pages > 1) ctx.out.text(`page ${answer.page} of ${answer.total_pages} (${answer.total} workspaces; --page N for more)`);
  },
};

const get: Command = {
  name: 'get',
  usage: ['get <id> [--environment]'],
  summary: 'One workspace: status, agent, repositories and chats (wakes a sleeping one)',
  options: { environment: { type: 'boolean' } },
  async run(ctx, values, positionals) {
    const id = positional(positionals, 0, 'id');
    const answer = await ctx.client.call(
      ctx.client.api.GET('/v1/replica/{id}', { params: { path: { id }, query: flag(values, 'environment') ? { include: 'environment' } : {} } }),
    );
    ctx.out.data(answer);
    const r = answer.replica as Record<string, any>;
    const lines = [
      `id:            ${r.id}`,
      `name:          ${r.name}`,
      `status:        ${r.status}${r.waking ? ' (waking)' : ''}`,
      `agent:         ${r.coding_agent ?? '-'}${r.models?.length ? ` (${(r.models as string[]).join(', ')})` : ''}`,
      `environment:   ${r.environment_id ?? '-'}`,
      `created:       ${shortTime(r.created_at)}`,
      `last activity: ${shortTime(r.last_activity_at)}`,
      `repositories:  ${(r.repositories as Array<{ name: string }>).map((repo) => repo.name).join(', ') || '-'}`,
    ];
    ctx.out.text(lines.join('\n'));
    const chats = (r.chats ?? []) as Array<{ id: string; provider: string; title: string; processing: boolean; updated_at: string }>;
    if (chats.length > 0) ctx.out.text('\n' + table(['CHAT', 'AGENT', 'BUSY', 'UPDATED', 'TITLE'], chats.map((c) => [c.id, c.provider, c.processing ? 'yes' : 'no', shortTime(c.updated_at), oneLine(c.title, 60)])));
    if (r.environment) ctx.out.text('\nenvironment: ' + JSON.stringify(r.environment, null, 2));
  },
};

const create: Command = {
  name: 'create',
  usage: [
    'create <name> --message TEXT|- [--environment ID] [--agent AGENT] [--model MODEL]',
    '  [--size small|large] [--thinking LEVEL] [--plan] [--lifecycle POLICY] [--until-active] [--no-wait]',
  ],
  summary: 'Create a workspace with a first message, and follow it until that turn ends',
  options: {
    message: { type: 'string', short: 'm' },
    environment: { type: 'string' },
    agent: { type: 'string' },
    model: { type: 'string' },
    size: { type: 'string' },
    thinking: { type: 'string' },
    plan: { type: 'boolean' },
    lifecycle: { type: 'string' },
    'until-active': { type: 'boolean' },
    'no-wait': { type: 'boolean' },
  },
  async run(ctx, values, positionals) {
    const name = positional(positionals, 0, 'name');
    const rawMessage = stringOption(values, 'message');
    if (rawMessage === undefined) throw new UsageError('--message is required (the first thing the agent does; - reads it from standard input)');
    const body: CreateBody = {
      name,
      message: await messageText(rawMessage),
      environment_id: stringOption(values, 'environment'),
      coding_agent: agentOption(values),
      model: stringOption(values, 'model'),
      size: enumOption(values, 'size', ['small', 'large'] as const),
      thinking_level: enumOption(values, 'thinking', ['low', 'medium', 'high', 'xhigh', 'max', 'ultra', 'ultracode'] as const),
      plan_mode: flag(values, 'plan') || undefined,
      lifecycle_policy: enumOption(values, 'lifecycle', ['default', 'archive_when_done', 'sleep_when_done', 'delete_after_inactivity'] as const),
    };
    const answer = await ctx.client.call(ctx.client.api.POST('/v1/replica', { body, headers: { 'x-api-version': API_VERSION } }));
    ctx.out.data(answer);
    const replica = answer.replica as ListItem;
    ctx.out.text(`created ${replica.name} (${replica.id}): ${replica.status}`);
    if (flag(values, 'no-wait')) return 0;
    // A new workspace's whole stream is short: replaying it from the start misses nothing.
    const handle = followReplica(ctx.connection, replica.id, '0');
    const untilActive = flag(values, 'until-active');
    return waitFor(ctx, handle, { kind: 'create', untilActive }, untilActive ? 'the workspace' : 'the workspace or its first turn');
  },
};

const send: Command = {
  name: 'send',
  usage: ['send <id> <message…|-> [--chat ID] [--agent AGENT] [--model MODEL] [--plan] [--no-wait]'],
  summary: 'Send a message (queued while the agent is busy) and follow its turn',
  options: { chat: { type: 'string' }, agent: { type: 'string' }, model: { type: 'string' }, plan: { type: 'boolean' }, 'no-wait': { type: 'boolean' } },
  async run(ctx, values, positionals) {
    const id = positional(positionals, 0, 'id');
    positional(positionals, 1, 'message');
    const body: SendBody = {
      message: await messageText(positionals.slice(1).join(' ')),
      chat_id: stringOption(values, 'chat'),
      coding_agent: agentOption(values),
      model: stringOption(values, 'model'),
      plan_mode: flag(values, 'plan') || undefined,
    };
    const wait = !flag(values, 'no-wait');
    // Following starts before the message is sent, so its turn's first events are seen.
    const handle = wait ? followReplica(ctx.connection, id) : null;
    let answer;
    try {
      if (handle) await handle.connected;
      answer = await ctx.client.call(ctx.client.api.POST('/v1/replica/{id}/messages', { params: { path: { id } }, body }));
    } catch (err) {
      await handle?.stop();
      throw err;
    }
    ctx.out.data(answer);
    const { status, message_id: messageId, chat_id: chatId, position } = answer;
    ctx.out.text(`message ${messageId ?? '?'} ${status ?? 'sent'}${status === 'queued' && position !== null && position !== undefined ? ` (position ${position})` : ''} in chat ${chatId ?? '?'}`);
    if (!handle) return 0;
    if (!messageId || !chatId) {
      await handle.stop();
      throw new CommandFailure('the API did not say which message and chat to follow');
    }
    return waitFor(ctx, handle, { kind: 'turn', messageId, chatId }, 'the turn');
  },
};

const read: Command = {
  name: 'read',
  usage: ['read <id> [--chat ID] [--limit N] [--offset N]'],
  summary: "A chat's agent history, newest last; --offset skips the N newest events",
  options: { chat: { type: 'string' }, limit: { type: 'string' }, offset: { type: 'string' } },
  async run(ctx, values, positionals) {
    const id = positional(positionals, 0, 'id');
    const offset = integerOption('offset', stringOption(values, 'offset'), 0) ?? 0;
    const answer = await ctx.client.call(
      ctx.client.api.GET('/v1/replica/{id}/history', {
        params: { path: { id }, query: { chat_id: stringOption(values, 'chat'), limit: integerOption('limit', stringOption(values, 'limit')), offset } },
      }),
    );
    ctx.out.data(answer);
    if (answer.events.length === 0) return void ctx.out.text(answer.total === 0 ? 'No history yet.' : `No events at offset ${offset} (${answer.total} in all).`);
    const lines = answer.events.map((e) => `${shortTime(e.timestamp)}  ${summarizeAgentEvent(e, 200)}`);
    const older = answer.total - offset - answer.events.length;
    ctx.out.text(lines.join('\n'));
    ctx.out.text(
      `(${answer.events.length} of ${answer.total} events${offset ? `, the ${offset} newest skipped` : ''}${older > 0 ? `; ${older} older: --offset ${offset + answer.events.length}` : ''})`,
    );
  },
};

const remove: Command = {
  name: 'delete',
  usage: ['delete <id>'],
  summary: 'Delete a workspace (its container and volume are removed)',
  async run(ctx, _values, positionals) {
    const id = positional(positionals, 0, 'id');
    const answer = await ctx.client.call(ctx.client.api.DELETE('/v1/replica/{id}', { params: { path: { id } } }));
    ctx.out.data(answer);
    ctx.out.text(`deleted ${id}`);
  },
};

export const replicaCommands: Command[] = [list, get, create, send, read, remove];
