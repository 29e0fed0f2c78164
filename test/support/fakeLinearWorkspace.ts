/**
 * One Linear workspace of the fake Linear (./fakeLinear.ts): its users, issues and comments, the
 * webhooks a change sends (Linear's envelope and headers, signed with the workspace's signing
 * secret), and the GraphQL resolvers a request authenticated with its tokens reaches.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { ResolverError, type Resolvers } from './fakeLinearGraphql';

export interface FakeLinearUser {
  id: string;
  name: string;
  displayName: string;
  email: string;
  url: string;
}

export type StateType = 'triage' | 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled';

export interface FakeLinearIssue {
  id: string;
  identifier: string;
  number: number;
  title: string;
  description: string | null;
  url: string;
  teamId: string;
  stateId: string;
  assigneeId: string | null;
  creatorId: string;
  createdAt: string;
  updatedAt: string;
}

export interface FakeLinearComment {
  id: string;
  body: string;
  issueId: string;
  userId: string;
  url: string;
  createdAt: string;
}

export interface FakeLinearCall {
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  authorization: string | undefined;
  workspace: string | null;
}

export interface Delivery {
  payload: Record<string, unknown>;
  /** The `Linear-Delivery` header it was sent with. */
  deliveryId: string;
  status: number;
  body: any;
}

export interface DeliveryOptions {
  /** Override the signature (null: no header). */
  signature?: string | null;
  /** Sign with this secret instead of the workspace's. */
  secret?: string;
  /** `webhookTimestamp` in ms (default now). */
  timestamp?: number;
  deliveryId?: string;
}

export interface FakeLinearWorkspace {
  organizationId: string;
  urlKey: string;
  webhookSecret: string;
  /** The OAuth app's user: the assignee that hands an issue to Hangar, the author of its comments. */
  app: FakeLinearUser;
  /** The app's OAuth access token (Bearer). */
  accessToken: string;
  /** A personal API key of the app user (sent as is). */
  apiKey: string;
  users: Map<string, FakeLinearUser>;
  issues: Map<string, FakeLinearIssue>;
  comments: FakeLinearComment[];
  /** Every webhook sent, with Hangar's answer. */
  deliveries: Delivery[];
  addUser(name: string, email: string): FakeLinearUser;
  /** Creates an issue (delivered as Issue create). */
  createIssue(by: FakeLinearUser, fields: { title: string; description?: string; assigneeId?: string | null }): Promise<{ issue: FakeLinearIssue; delivery: Delivery }>;
  /** Assigns an issue (Issue update with `updatedFrom.assigneeId`). */
  assign(issueId: string, assigneeId: string | null, by: FakeLinearUser): Promise<Delivery>;
  /** A member comments (Comment create). */
  comment(issueId: string, by: FakeLinearUser, body: string): Promise<Delivery>;
  /** Moves an issue to the team's state of that type (Issue update with `updatedFrom.stateId`). */
  moveTo(issueId: string, type: StateType, by: FakeLinearUser): Promise<Delivery>;
  /** The payload of an Issue delivery as Linear would build it now, for a test to send as it likes. */
  issuePayload(action: 'create' | 'update' | 'remove', issueId: string, by: FakeLinearUser, updatedFrom?: Record<string, unknown>): Record<string, unknown>;
  deliver(payload: Record<string, unknown>, options?: DeliveryOptions): Promise<Delivery>;
  commentsOn(issueId: string): FakeLinearComment[];
}

/** The workspace with what only the fake's server reads. */
export type LinearWorkspaceModel = FakeLinearWorkspace & {
  resolvers: Resolvers;
  teamId: string;
  teamKey: string;
  states: Map<string, { id: string; type: StateType; name: string; color: string }>;
  nextNumber: number;
};

const STATES: Array<{ type: StateType; name: string; color: string }> = [
  { type: 'triage', name: 'Triage', color: '#FC7840' },
  { type: 'backlog', name: 'Backlog', color: '#bec2c8' },
  { type: 'unstarted', name: 'Todo', color: '#e2e2e2' },
  { type: 'started', name: 'In Progress', color: '#f2c94c' },
  { type: 'completed', name: 'Done', color: '#5e6ad2' },
  { type: 'canceled', name: 'Canceled', color: '#95a2b3' },
];

const iso = () => new Date().toISOString();
const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);

export function createLinearWorkspace(webhookUrl: () => string | null): LinearWorkspaceModel {
  const urlKey = `acme-${randomBytes(3).toString('hex')}`;
  const ws = {
    organizationId: randomUUID(),
    urlKey,
    webhookSecret: `lin_wh_${randomBytes(24).toString('hex')}`,
    accessToken: `lin_oauth_${randomBytes(24).toString('hex')}`,
    apiKey: `lin_api_${randomBytes(20).toString('hex')}`,
    users: new Map(),
    issues: new Map(),
    comments: [],
    deliveries: [],
    teamId: randomUUID(),
    teamKey: 'ENG',
    states: new Map(STATES.map((s) => [s.type, { id: randomUUID(), ...s }])),
    nextNumber: 1,
  } as unknown as LinearWorkspaceModel;
  const user = (name: string, email: string): FakeLinearUser => {
    const u = { id: randomUUID(), name, displayName: name.split(' ')[0]!.toLowerCase(), email, url: `https://linear.app/${urlKey}/profiles/${name.split(' ')[0]!.toLowerCase()}` };
    ws.users.set(u.id, u);
    return u;
  };
  ws.app = user('Hangar', `hangar-app-${urlKey}@oauthapp.linear.app`);
  ws.addUser = user;

  const stateOf = (issue: FakeLinearIssue) => [...ws.states.values()].find((s) => s.id === issue.stateId)!;
  const actor = (u: FakeLinearUser) => ({ id: u.id, name: u.name, email: u.email, url: u.url, type: 'user' });
  const issueData = (issue: FakeLinearIssue) => {
    const assignee = issue.assigneeId ? ws.users.get(issue.assigneeId) : null;
    const state = stateOf(issue);
    return {
      ...issue,
      priority: 0,
      priorityLabel: 'No priority',
      boardOrder: 0,
      sortOrder: -issue.number,
      previousIdentifiers: [],
      labelIds: [],
      subscriberIds: [issue.creatorId],
      botActor: null,
      state: { id: state.id, color: state.color, name: state.name, type: state.type },
      team: { id: ws.teamId, key: ws.teamKey, name: 'Engineering' },
      labels: [],
      ...(assignee ? { assignee: { id: assignee.id, name: assignee.name } } : {}),
    };
  };
  const envelope = (action: string, type: string, data: Record<string, unknown>, by: FakeLinearUser, url: string, updatedFrom?: Record<string, unknown>) => ({
    action,
    actor: actor(by),
    createdAt: iso(),
    data,
    ...(updatedFrom ? { updatedFrom } : {}),
    url,
    type,
    organizationId: ws.organizationId,
    webhookTimestamp: Date.now(),
    webhookId: randomUUID(),
  });
  ws.issuePayload = (action, issueId, by, updatedFrom) => {
    const issue = ws.issues.get(issueId)!;
    return envelope(action, 'Issue', issueData(issue), by, issue.url, updatedFrom);
  };
  const commentPayload = (comment: FakeLinearComment) => {
    const issue = ws.issues.get(comment.issueId)!;
    const by = ws.users.get(comment.userId)!;
    const data = {
      id: comment.id,
      createdAt: comment.createdAt,
      updatedAt: comment.createdAt,
      body: comment.body,
      issueId: issue.id,
      userId: by.id,
      reactionData: [],
      user: { id: by.id, name: by.name, avatarUrl: null, url: by.url },
      issue: { id: issue.id, title: issue.title, teamId: issue.teamId, identifier: issue.identifier, url: issue.url },
    };
    return envelope('create', 'Comment', data, by, comment.url);
  };
  ws.deliver = async (payload, options = {}) => {
    const body = JSON.stringify(options.timestamp === undefined ? payload : { ...payload, webhookTimestamp: options.timestamp });
    const deliveryId = options.deliveryId ?? randomUUID();
    const target = webhookUrl();
    // Without a receiver (unit tests) a delivery is kept, not sent.
    if (!target) {
      const kept = { payload: JSON.parse(body), deliveryId, status: 0, body: null };
      ws.deliveries.push(kept);
      return kept;
    }
    const signature = options.signature === undefined ? createHmac('sha256', options.secret ?? ws.webhookSecret).update(body).digest('hex') : options.signature;
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Linear-Webhook',
      'linear-delivery': deliveryId,
      'linear-event': String(payload.type),
    };
    if (signature !== null) headers['linear-signature'] = signature;
    const res = await fetch(target, { method: 'POST', headers, body });
    const text = await res.text();
    const delivery = { payload: JSON.parse(body), deliveryId, status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
    ws.deliveries.push(delivery);
    return delivery;
  };
  ws.createIssue = async (by, fields) => {
    const number = ws.nextNumber++;
    const identifier = `${ws.teamKey}-${number}`;
    const issue: FakeLinearIssue = {
      id: randomUUID(),
      identifier,
      number,
      title: fields.title,
      description: fields.description ?? null,
      url: `https://linear.app/${urlKey}/issue/${identifier}/${slugOf(fields.title)}`,
      teamId: ws.teamId,
      stateId: ws.states.get('unstarted')!.id,
      assigneeId: fields.assigneeId ?? null,
      creatorId: by.id,
      createdAt: iso(),
      updatedAt: iso(),
    };
    ws.issues.set(issue.id, issue);
    return { issue, delivery: await ws.deliver(ws.issuePayload('create', issue.id, by)) };
  };
  ws.assign = async (issueId, assigneeId, by) => {
    const issue = ws.issues.get(issueId)!;
    const updatedFrom = { assigneeId: issue.assigneeId, updatedAt: issue.updatedAt };
    Object.assign(issue, { assigneeId, updatedAt: iso() });
    return ws.deliver(ws.issuePayload('update', issueId, by, updatedFrom));
  };
  ws.moveTo = async (issueId, type, by) => {
    const issue = ws.issues.get(issueId)!;
    const updatedFrom = { stateId: issue.stateId, updatedAt: issue.updatedAt, ...(type === 'completed' ? { completedAt: null } : {}) };
    Object.assign(issue, { stateId: ws.states.get(type)!.id, updatedAt: iso() });
    return ws.deliver(ws.issuePayload('update', issueId, by, updatedFrom));
  };
  const addComment = (issueId: string, userId: string, body: string): FakeLinearComment => {
    const issue = ws.issues.get(issueId)!;
    const id = randomUUID();
    const comment = { id, body, issueId, userId, url: `${issue.url}#comment-${id.slice(0, 8)}`, createdAt: iso() };
    ws.comments.push(comment);
    return comment;
  };
  ws.comment = async (issueId, by, body) => ws.deliver(commentPayload(addComment(issueId, by.id, body)));
  ws.commentsOn = (issueId) => ws.comments.filter((c) => c.issueId === issueId);

  /** The GraphQL root resolvers for a request authenticated as the app user. */
  ws.resolvers = {
    viewer: () => ws.app,
    user: (args: Record<string, unknown>) => ws.users.get(String(args.id)) ?? notFound('User'),
    issue: (args: Record<string, unknown>) => {
      const issue = ws.issues.get(String(args.id)) ?? [...ws.issues.values()].find((i) => i.identifier === args.id);
      return issue ? { ...issueData(issue), assignee: issue.assigneeId ? ws.users.get(issue.assigneeId) : null } : notFound('Issue');
    },
    commentCreate: (args: Record<string, unknown>) => {
      const input = (args.input ?? {}) as { issueId?: unknown; body?: unknown };
      if (typeof input.issueId !== 'string' || !ws.issues.has(input.issueId)) return notFound('Issue');
      if (typeof input.body !== 'string' || !input.body.trim()) return invalidInput('body should not be empty');
      const comment = addComment(input.issueId, ws.app.id, input.body);
      // Linear sends the app's own comment back as a delivery, after answering.
      setImmediate(() => void ws.deliver(commentPayload(comment)).catch(() => undefined));
      return { success: true, lastSyncId: Date.now(), comment: { ...comment, user: ws.app, issue: issueData(ws.issues.get(input.issueId)!) } };
    },
  };
  return ws;
}

function notFound(entity: string): never {
  throw new ResolverError({ message: `Entity not found: ${entity}`, extensions: { type: 'invalid input', code: 'INVALID_INPUT', userError: true, userPresentableMessage: `Could not find referenced ${entity}.` } });
}

function invalidInput(message: string): never {
  throw new ResolverError({ message: 'Argument Validation Error', extensions: { type: 'invalid input', code: 'INVALID_INPUT', userError: true, userPresentableMessage: message } });
}
