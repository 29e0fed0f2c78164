/**
 * Unauthenticated inbound webhooks: the custom-trigger webhook (the path token is the
 * credential) and the code-hosting receivers (signed). Each reads its own body: raw bytes
 * for the signature, any media type for the custom webhook, and its own size limit.
 */
import type { Context } from 'koa';
import { readBody } from '../body';
import type { Route } from '../route';
import { defineRoute } from '../route';
import { object } from '../../schemas/common';
import { CODE_HOSTING_LIMIT_BYTES, CUSTOM_WEBHOOK_LIMIT_BYTES, type AutomationIntake, type WebhookRequest } from '../../services/automations/intake';

const tag = 'Automation webhooks';

async function webhookRequest(ctx: Context, limit: number): Promise<WebhookRequest> {
  return { headers: ctx.headers, body: await readBody(ctx.req, limit), contentType: ctx.get('content-type') || undefined };
}

const acceptedSchema = object({ accepted: { type: 'boolean', const: true } }, ['accepted']);
const codeHostingAnswer = object(
  {
    accepted: { type: 'boolean', const: true },
    matched: { type: 'integer', description: 'Automations the event was recorded for' },
    duplicate: { type: 'boolean', description: 'The delivery id was seen before; nothing was recorded again' },
    ignored: { type: 'string', description: 'Why the delivery triggers nothing' },
  },
  ['accepted', 'matched', 'duplicate'],
);

export function automationWebhookRoutes(intake: AutomationIntake): Route[] {
  return [
    defineRoute<{ token: string }>({
      method: 'post',
      path: '/v1/automations/webhook/:token',
      operationId: 'automationWebhook',
      summary: 'Fire an automation with a custom trigger; the body (JSON, or anything else as {raw}) becomes the trigger payload',
      tag,
      auth: 'none',
      ownBody: true,
      params: object({ token: { type: 'string', minLength: 1, maxLength: 200 } }, ['token']),
      response: { status: 202, description: 'Queued', schema: acceptedSchema },
      errors: [404, 413],
      handler: async ({ params, ctx }) => intake.acceptCustom(params.token, await webhookRequest(ctx, CUSTOM_WEBHOOK_LIMIT_BYTES)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/github',
      operationId: 'githubWebhook',
      summary: 'GitHub webhook receiver (X-Hub-Signature-256); pull_request events fire matching automations',
      tag,
      auth: 'none',
      ownBody: true,
      response: { status: 202, description: 'Accepted', schema: codeHostingAnswer },
      errors: [400, 401, 413],
      handler: async ({ ctx }) => intake.acceptGithub(await webhookRequest(ctx, CODE_HOSTING_LIMIT_BYTES)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/gitlab',
      operationId: 'gitlabWebhook',
      summary: 'GitLab webhook receiver (X-Gitlab-Token); merge request events fire matching automations',
      tag,
      auth: 'none',
      ownBody: true,
      response: { status: 202, description: 'Accepted', schema: codeHostingAnswer },
      errors: [400, 401, 413],
      handler: async ({ ctx }) => intake.acceptGitlab(await webhookRequest(ctx, CODE_HOSTING_LIMIT_BYTES)),
    }),
  ];
}
