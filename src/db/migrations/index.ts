/**
 * Migrations are listed in code rather than discovered on disk, so the same list runs under
 * tsx, in the worker bundle's process and in tests, whatever the working directory.
 */
import type { Knex } from 'knex';
import * as m001 from './001_foundation';
import * as m002 from './002_credentials_and_org_settings';
import * as m003 from './003_model_catalog';
import * as m004 from './004_api_keys_and_profile';
import * as m005 from './005_workspaces';
import * as m006 from './006_warm_pools';
import * as m007 from './007_automations';
import * as m008 from './008_automation_events';
import * as m009 from './009_debounce_window_starts';
import * as m010 from './010_turn_sessions';
import * as m011 from './011_ai_gateway_usage';
import * as m012 from './012_installed_skills';
import * as m013 from './013_previews';
import * as m014 from './014_media';
import * as m015 from './015_analytics';
import * as m016 from './016_skills_registries';
import * as m017 from './017_connections';
import * as m018 from './018_plugins';
import * as m021 from './021_execution_origins';
import * as m022 from './022_code_hosting_threads';
import * as m023 from './023_thread_replies';
import * as m025 from './025_delivery_bodies';
import * as m026 from './026_workspace_scoped_chat_ids';
import * as m027 from './027_interrupted_executions';
import * as m028 from './028_idempotency_fingerprints';
import * as m029 from './029_worker_hosts';
import * as m030 from './030_worker_relays';
import * as m031 from './031_gitlab_connections';
import * as m032 from './032_supervised_turns';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: Array<[string, Migration]> = [
  ['001_foundation', m001],
  ['002_credentials_and_org_settings', m002],
  ['003_model_catalog', m003],
  ['004_api_keys_and_profile', m004],
  ['005_workspaces', m005],
  ['006_warm_pools', m006],
  ['007_automations', m007],
  ['008_automation_events', m008],
  ['009_debounce_window_starts', m009],
  ['010_turn_sessions', m010],
  ['011_ai_gateway_usage', m011],
  ['012_installed_skills', m012],
  ['013_previews', m013],
  ['014_media', m014],
  ['015_analytics', m015],
  ['016_skills_registries', m016],
  ['017_connections', m017],
  ['018_plugins', m018],
  ['021_execution_origins', m021],
  ['022_code_hosting_threads', m022],
  ['023_thread_replies', m023],
  ['025_delivery_bodies', m025],
  ['026_workspace_scoped_chat_ids', m026],
  ['027_interrupted_executions', m027],
  ['028_idempotency_fingerprints', m028],
  ['029_worker_hosts', m029],
  ['030_worker_relays', m030],
  ['031_gitlab_connections', m031],
  ['032_supervised_turns', m032],
];

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = migrations.find(([n]) => n === name);
    if (!found) throw new Error(`unknown migration ${name}`);
    return found[1];
  },
};
