/**
 * What the automation routes hand to the service, already validated against their schemas:
 * the types are derived from those schemas (src/schemas/automations.ts), never written twice.
 */
export type { CreateAutomationInput, ListAutomationsQuery, UpdateAutomationInput } from '../../schemas/automations';

export type AutomationScope = 'org' | 'user' | 'all';
