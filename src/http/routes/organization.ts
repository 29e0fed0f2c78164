import { settingsEnvelope, updateSettingsBody } from '../../schemas/organization';
import type { OrganizationSettingsService } from '../../services/organizationSettings';
import { defineRoute, type Route } from '../route';

const tag = 'Organization';

export function organizationRoutes(settings: OrganizationSettingsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/organization/settings',
      operationId: 'getOrganizationSettings',
      summary: "The organization's default coding agent, models and environment, and its code-hosting settings",
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'The settings', schema: settingsEnvelope },
      errors: [401],
      handler: async ({ actor }) => ({ settings: await settings.get(actor) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/organization/settings',
      operationId: 'updateOrganizationSettings',
      summary: "Change the organization's defaults (admins)",
      tag,
      auth: 'apiKey',
      body: updateSettingsBody,
      response: { status: 200, description: 'The updated settings', schema: settingsEnvelope },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, body }) => ({ settings: await settings.update(actor, body) }),
    }),
  ];
}
