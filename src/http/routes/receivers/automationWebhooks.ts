/**
 * Unauthenticated inbound webhooks: the custom-trigger webhook (the path token is the
 * credential) and the code-hosting receivers (signed). Each reads its own body — raw bytes for
 * the signature, any media type for the custom webhook — and only once what the path and the
 * headers can tell has been checked: a refused delivery is answered without reading its body.
 */
import type { Context } from 'koa';
import { refuseDeclaredOverLimit } from '../../body';
import type { ReadBodyOptions, Route, RouteInput } from '../../route';
import { defineRoute } from '../../route';
import { parseIdempotencyKey } from '../../../domain/idempotency';
import { acceptedSchema, codeHostingAnswer, customWebhookParams } from '../../../schemas/automationWebhooks';
import { CUSTOM_WEBHOOK_LIMIT_BYTES, type AutomationIntake, type WebhookRequest } from '../../../services/receivers/automationWebhooks';

const tag = 'Automation webhooks';
/** GitHub sends either, as the hook's "content type" says. */
const GITHUB_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

async function webhookRequest({ ctx, readBody }: RouteInput<unknown, unknown, unknown>, options?: ReadBodyOptions): Promise<WebhookRequest> {
  return { headers: ctx.headers, body: await readBody(options), contentType: contentType(ctx) };
}

const contentType = (ctx: Context) => ctx.get('content-type') || undefined;

export function automationWebhookRoutes(intake: AutomationIntake): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/automations/webhook/:token',
      webhook: 'custom',
      operationId: 'automationWebhook',
      summary:
        'Fire an automation with a custom trigger; the body (JSON, or anything else as {raw}) becomes the trigger payload. ' +
        'With an `Idempotency-Key` header a retry is answered again (`Idempotent-Replayed: true`) without firing twice; keys are kept 7 days',
      tag,
      auth: 'none',
      ownBody: true,
      bodyLimit: CUSTOM_WEBHOOK_LIMIT_BYTES,
      params: customWebhookParams,
      response: { status: 202, description: 'Queued', schema: acceptedSchema },
      errors: [400, 404, 413, 422],
      handler: async (input) => {
        // A declared size over the limit is a 413 whatever the token (interop §10.4).
        refuseDeclaredOverLimit(input.ctx.req, CUSTOM_WEBHOOK_LIMIT_BYTES);
        const key = parseIdempotencyKey(input.ctx.get('idempotency-key') || undefined);
        const { replayed } = await intake.acceptCustom(input.params.token, () => webhookRequest(input), key);
        // A retry of a request already accepted gets the same answer, marked as a replay.
        if (replayed) input.ctx.set('Idempotent-Replayed', 'true');
        return { accepted: true };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/github',
      webhook: 'github',
      operationId: 'githubWebhook',
      summary: 'GitHub webhook receiver (X-Hub-Signature-256); pull_request events fire matching automations',
      tag,
      auth: 'none',
      ownBody: true,
      bodyLimit: 'codeHosting',
      response: { status: 202, description: 'Accepted', schema: codeHostingAnswer },
      errors: [400, 401, 413, 415, 503],
      handler: async (input) => {
        const verifier = intake.githubVerifier(input.ctx.headers);
        return intake.acceptGithub(await webhookRequest(input, { types: GITHUB_TYPES, verifier }));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/gitlab',
      webhook: 'gitlab',
      operationId: 'gitlabWebhook',
      summary:
        "GitLab webhook receiver: X-Gitlab-Token is an organization's GitLab connection token (or, in a deployment of one organization, HANGAR_GITLAB_WEBHOOK_TOKEN); " +
        "merge request events fire that organization's matching automations, and mentions and notes reach its threads, for its own connected repositories only",
      tag,
      auth: 'none',
      ownBody: true,
      bodyLimit: 'codeHosting',
      response: { status: 202, description: 'Accepted', schema: codeHostingAnswer },
      errors: [400, 401, 413, 415],
      handler: async (input) => {
        const sender = await intake.gitlabSender(input.ctx.headers);
        return intake.acceptGitlab(await webhookRequest(input, { types: ['application/json'] }), sender);
      },
    }),
  ];
}
