/**
 * Every validation rule of an automation, each its own assertion: the 400 and the details
 * naming the field and the rule. Create and PATCH share the rules; PATCH cases check the
 * cross-field rules against the stored record.
 */
import { expect } from 'chai';
import { errorOf } from '../../support/http';
import { automationOrg, CUSTOM, cron, MR_OPENED, PR_OPENED, PR_SYNC } from './support';

type Org = Awaited<ReturnType<typeof automationOrg>>;

describe('automation rules', () => {
  let ctx: Org;
  before(async () => {
    ctx = await automationOrg();
  });

  const rejected: Array<[string, Record<string, unknown>, RegExp]> = [
    // Required fields and triggers
    ['name is required', { name: undefined }, /^body\.name: is required$/],
    ['prompt is required', { prompt: undefined }, /^body\.prompt: is required$/],
    ['environment_id is required', { environment_id: undefined }, /^body\.environment_id: is required$/],
    ['triggers are required', { triggers: undefined }, /^body\.triggers: is required$/],
    ['at least one trigger', { triggers: [] }, /^body\.triggers: must NOT have fewer than 1 items$/],
    ['a trigger needs a type', { triggers: [{ config: {} }] }, /^body\.triggers\.0\.type: is required$/],
    ['unknown trigger type', { triggers: [{ type: 'jira', config: {} }] }, /^body\.triggers\.0\.type: must be one of cron, github, gitlab, slack, sentry, custom$/],
    ['slack event is message', { triggers: [{ type: 'slack', config: { event: 'reaction_added' } }] }, /^body\.triggers\.0\.config\.event: a slack trigger's event must be message$/],
    // Duplicates
    ['at most one cron trigger', { triggers: [cron('0 3 * * *'), cron('0 4 * * *')] }, /^body\.triggers: at most one cron trigger per automation$/],
    ['at most one trigger per event name', { triggers: [PR_OPENED, PR_OPENED] }, /^body\.triggers: at most one trigger per event; pull_request\.opened appears more than once$/],
    ['at most one trigger per event name (gitlab)', { triggers: [MR_OPENED, { type: 'gitlab', config: { event: 'merge_request.opened', repository_ids: [] } }] }, /at most one trigger per event; merge_request\.opened/],
    ['at most one custom trigger', { triggers: [CUSTOM, CUSTOM] }, /^body\.triggers: at most one custom trigger per automation$/],
    // Cron config
    ['cron schedule is required', { triggers: [{ type: 'cron', config: { timezone: 'UTC' } }] }, /^body\.triggers\.0\.config\.schedule: is required/],
    ['cron schedule must have five fields (four)', { triggers: [cron('0 3 * *')] }, /^body\.triggers\.0\.config\.schedule: .+/],
    ['cron schedule must have five fields (six)', { triggers: [cron('0 0 3 * * *')] }, /^body\.triggers\.0\.config\.schedule: .+/],
    ['cron schedule values in range', { triggers: [cron('61 3 * * *')] }, /^body\.triggers\.0\.config\.schedule: .+/],
    ['cron timezone must be an IANA name', { triggers: [cron('0 3 * * *', 'Mars/Olympus_Mons')] }, /^body\.triggers\.0\.config\.timezone: "Mars\/Olympus_Mons" is not an IANA time zone name$/],
    ['cron config has no other fields', { triggers: [{ type: 'cron', config: { schedule: '0 3 * * *', every: 5 } }] }, /^body\.triggers\.0\.config\.every: unknown field$/],
    // Code-hosting config
    ['github event is required', { triggers: [{ type: 'github', config: {} }] }, /^body\.triggers\.0\.config\.event: a github trigger's event must be one of pull_request\.opened, pull_request\.synchronize, pull_request\.closed, pull_request\.merged, pull_request\.command$/],
    ['github events are pull_request.*', { triggers: [{ type: 'github', config: { event: 'merge_request.opened' } }] }, /^body\.triggers\.0\.config\.event: a github trigger's event must be one of/],
    ['gitlab events are merge_request.*', { triggers: [{ type: 'gitlab', config: { event: 'pull_request.opened' } }] }, /^body\.triggers\.0\.config\.event: a gitlab trigger's event must be one of merge_request\.opened, merge_request\.updated, merge_request\.closed, merge_request\.merged, merge_request\.command$/],
    ['pull_request.command is a github event', { triggers: [{ type: 'gitlab', config: { event: 'pull_request.command' } }] }, /config\.event: a gitlab trigger's event must be one of/],
    ['repository_ids are UUIDs', { triggers: [{ type: 'github', config: { event: 'pull_request.opened', repository_ids: ['web'] } }] }, /^body\.triggers\.0\.config\.repository_ids\.0: must be a repository UUID$/],
    ['repository_ids is an array', { triggers: [{ type: 'github', config: { event: 'pull_request.opened', repository_ids: 'x' } }] }, /^body\.triggers\.0\.config\.repository_ids: must be an array$/],
    ['excluded_actors are strings', { triggers: [{ type: 'github', config: { event: 'pull_request.opened', excluded_actors: [7] } }] }, /^body\.triggers\.0\.config\.excluded_actors\.0: must be a string$/],
    ['excluded_actors are not empty', { triggers: [{ type: 'github', config: { event: 'pull_request.opened', excluded_actors: [' '] } }] }, /^body\.triggers\.0\.config\.excluded_actors\.0: must be 1 to 100 characters$/],
    ['group_pr_events is a boolean', { triggers: [{ type: 'github', config: { event: 'pull_request.opened', group_pr_events: 'yes' } }] }, /^body\.triggers\.0\.config\.group_pr_events: must be a boolean$/],
    ['custom config is {}', { triggers: [{ type: 'custom', config: { secret: 'x' } }] }, /^body\.triggers\.0\.config\.secret: unknown field/],
    // debounce_seconds
    ['debounce_seconds at least 0', { debounce_seconds: -1 }, /^body\.debounce_seconds: must be >= 0$/],
    ['debounce_seconds at most 86400', { debounce_seconds: 86401 }, /^body\.debounce_seconds: must be <= 86400$/],
    ['debounce_seconds is an integer', { debounce_seconds: 1.5 }, /^body\.debounce_seconds: must be integer/],
    // vcs_check_names
    ['vcs_check_names needs a pull_request.opened or .synchronize trigger', { vcs_check_names: ['review'] }, /^body\.vcs_check_names: a non-empty list needs a pull_request\.opened or pull_request\.synchronize trigger/],
    ['vcs_check_names: a command trigger is not enough (no head commit)', { triggers: [{ type: 'github', config: { event: 'pull_request.command' } }], vcs_check_names: ['review'] }, /^body\.vcs_check_names: a non-empty list needs/],
    ['vcs_check_names: pull_request.closed is not enough', { triggers: [{ type: 'github', config: { event: 'pull_request.closed' } }], vcs_check_names: ['review'] }, /^body\.vcs_check_names: a non-empty list needs/],
    ['vcs_check_names: merge_request.opened is not enough', { triggers: [MR_OPENED], vcs_check_names: ['review'] }, /^body\.vcs_check_names: a non-empty list needs/],
    ['vcs_check_names: at most 10 names', { triggers: [PR_OPENED], vcs_check_names: Array.from({ length: 11 }, (_, i) => `check-${i}`) }, /^body\.vcs_check_names: must NOT have more than 10 items$/],
    ['vcs_check_names: names at least 1 character', { triggers: [PR_OPENED], vcs_check_names: [''] }, /^body\.vcs_check_names\.0: must NOT have fewer than 1 characters$/],
    ['vcs_check_names: names at most 100 characters', { triggers: [PR_OPENED], vcs_check_names: ['x'.repeat(101)] }, /^body\.vcs_check_names\.0: must NOT have more than 100 characters$/],
    ['vcs_check_names: no duplicates', { triggers: [PR_OPENED], vcs_check_names: ['a', 'a'] }, /^body\.vcs_check_names: must NOT have duplicate items/],
    // workspace settings
    ['workspace_auto_stop_minutes at least 3', { workspace_auto_stop_minutes: 2 }, /^body\.workspace_auto_stop_minutes: must be >= 3$/],
    ['workspace_auto_stop_minutes at most 1440', { workspace_auto_stop_minutes: 1441 }, /^body\.workspace_auto_stop_minutes: must be <= 1440$/],
    ['workspace_lifecycle_policy values', { workspace_lifecycle_policy: 'forever' }, /^body\.workspace_lifecycle_policy: must be one of default, archive_when_done, sleep_when_done, delete_after_inactivity$/],
    ['workspace_size values', { workspace_size: 'huge' }, /^body\.workspace_size: must be one of small, large$/],
    ['config has only capabilities and preferences', { config: { provisioning_error: { message: 'x' } } }, /^body\.config\.provisioning_error: unknown field$/],
    ['config flags are booleans', { config: { capabilities: { pr_followups: 'yes' } } }, /^body\.config\.capabilities\.pr_followups: must be boolean$/],
    ['config flags are known', { config: { preferences: { keep_open_forever: true } } }, /^body\.config\.preferences\.keep_open_forever: unknown field$/],
    // Agent, model, modes
    ['agent_provider values', { agent_provider: 'agent_9' }, /^body\.agent_provider: must be one of agent_1, agent_2, agent_3, agent_4, agent_5, null$/],
    ['model requires agent_provider', { model: 'some-model' }, /^body\.model: a model override requires agent_provider$/],
    ['thinking_level values', { agent_provider: 'agent_1', thinking_level: 'extreme' }, /^body\.thinking_level: must be one of/],
    ['ultra only with agent_2', { agent_provider: 'agent_1', thinking_level: 'ultra' }, /^body\.thinking_level: thinking_level ultra is only available with agent_2$/],
    ['ultra not without an agent', { thinking_level: 'ultra' }, /^body\.thinking_level: ultra is only available with agent_provider agent_2$/],
    ['ultracode only with agent_1', { agent_provider: 'agent_2', thinking_level: 'ultracode' }, /^body\.thinking_level: thinking_level ultracode is only available with agent_1$/],
    ['ultracode not without an agent', { thinking_level: 'ultracode' }, /^body\.thinking_level: ultracode is only available with agent_provider agent_1$/],
    ['goal mode only where the agent has it (agent_1)', { agent_provider: 'agent_1', goal_mode: true }, /^body\.goal_mode: agent_1 does not support goal mode$/],
    ['fast mode only where the agent has it (agent_3)', { agent_provider: 'agent_3', fast_mode: true }, /^body\.fast_mode: agent_3 does not support fast mode$/],
    ['goal mode not on agent_3', { agent_provider: 'agent_3', goal_mode: true }, /^body\.goal_mode: agent_3 does not support goal mode$/],
    ['plan mode only where the agent has it (agent_5)', { agent_provider: 'agent_5', plan_mode: true }, /^body\.plan_mode: agent_5 does not support plan mode$/],
    // Types and unknown fields
    ['unknown field', { color: 'red' }, /^body\.color: unknown field$/],
    ['scope values', { scope: 'team' }, /^body\.scope: must be one of org, user$/],
    ['enabled is a boolean', { enabled: 'yes' }, /^body\.enabled: must be boolean$/],
    ['name is not blank', { name: '   ' }, /^body\.name: /],
    ['environment_id is a UUID', { environment_id: 'global' }, /^body\.environment_id: must match format "uuid"$/],
  ];

  for (const [rule, over, details] of rejected) {
    it(`POST rejects: ${rule}`, async () => {
      const res = await ctx.api.post('/v1/automations', ctx.body(over));
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    });
  }

  const accepted: Array<[string, Record<string, unknown>]> = [
    ['pull_request.opened with merge_request.opened', { triggers: [PR_OPENED, MR_OPENED] }],
    ['one trigger of each kind', { triggers: [cron('0 3 * * *'), PR_OPENED, PR_SYNC, MR_OPENED, CUSTOM] }],
    ['cron timezone defaults to UTC', { triggers: [cron('15 * * * *')] }],
    ['debounce_seconds null', { debounce_seconds: null }],
    ['debounce_seconds 0', { debounce_seconds: 0 }],
    ['debounce_seconds 86400', { debounce_seconds: 86400 }],
    ['vcs_check_names with pull_request.synchronize', { triggers: [PR_SYNC], vcs_check_names: ['a', 'x'.repeat(100)] }],
    ['vcs_check_names: ten names', { triggers: [PR_OPENED], vcs_check_names: Array.from({ length: 10 }, (_, i) => `c${i}`) }],
    ['vcs_check_names: empty without a PR trigger', { vcs_check_names: [] }],
    ['pull_request.command and merge_request.command, grouped', { triggers: [{ type: 'github', config: { event: 'pull_request.command', group_pr_events: true } }, { type: 'gitlab', config: { event: 'merge_request.command', group_pr_events: true } }] }],
    ['workspace_auto_stop_minutes 3', { workspace_auto_stop_minutes: 3 }],
    ['workspace_auto_stop_minutes 1440', { workspace_auto_stop_minutes: 1440 }],
    ['workspace_lifecycle_policy delete_after_inactivity', { workspace_lifecycle_policy: 'delete_after_inactivity' }],
    ['ultra with agent_2', { agent_provider: 'agent_2', thinking_level: 'ultra' }],
    ['ultracode with agent_1', { agent_provider: 'agent_1', thinking_level: 'ultracode' }],
    ['false modes on an agent without them', { agent_provider: 'agent_3', goal_mode: false, fast_mode: false, plan_mode: true }],
    ['goal and fast mode on agent_2', { agent_provider: 'agent_2', goal_mode: true, fast_mode: true }],
    ['modes inherit without an agent', { goal_mode: null, fast_mode: null, thinking_level: 'high' }],
    ['null capabilities and preferences', { config: { capabilities: null, preferences: null } }],
  ];

  for (const [rule, over] of accepted) {
    it(`POST accepts: ${rule}`, async () => {
      const res = await ctx.api.post('/v1/automations', ctx.body(over));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    });
  }

  it('cron timezone defaults to UTC in the record', async () => {
    const res = await ctx.api.post('/v1/automations', ctx.body({ triggers: [cron('15 * * * *')] }));
    expect(res.body.automation.triggers[0].config).to.deep.equal({ schedule: '15 * * * *', timezone: 'UTC' });
    expect(res.body.automation.cron_timezone).to.equal('UTC');
  });

  describe('PATCH applies the rules against the stored record', () => {
    async function withChecks() {
      const res = await ctx.api.post('/v1/automations', ctx.body({ triggers: [PR_OPENED], vcs_check_names: ['review'], agent_provider: 'agent_2', model: 'm', thinking_level: 'ultra', goal_mode: true }));
      expect(res.status).to.equal(201);
      return res.body.automation.id as string;
    }
    const patchRejected: Array<[string, Record<string, unknown>, RegExp]> = [
      ['dropping the PR trigger while checks are set', { triggers: [MR_OPENED] }, /^body\.vcs_check_names: a non-empty list needs/],
      ['clearing agent_provider while a model is set', { agent_provider: null }, /^body\.model: a model override requires agent_provider$/],
      ['switching agent while ultra is set', { agent_provider: 'agent_1', model: null }, /^body\.(goal_mode|thinking_level): /],
      ['switching to agent_3 while goal mode is on', { agent_provider: 'agent_3', thinking_level: null, model: null }, /^body\.goal_mode: agent_3 does not support goal mode$/],
      ['duplicate events', { triggers: [PR_OPENED, PR_OPENED] }, /^body\.triggers: at most one trigger per event/],
      ['a bad schedule', { triggers: [PR_OPENED, cron('every day')] }, /^body\.triggers\.1\.config\.schedule: /],
      ['a bad timezone', { triggers: [PR_OPENED, cron('0 3 * * *', 'Nowhere/Land')] }, /^body\.triggers\.1\.config\.timezone: /],
      ['an empty trigger list', { triggers: [] }, /^body\.triggers: must NOT have fewer than 1 items$/],
      ['debounce over the bound', { debounce_seconds: 100000 }, /^body\.debounce_seconds: must be <= 86400$/],
      ['auto-stop under the bound', { workspace_auto_stop_minutes: 1 }, /^body\.workspace_auto_stop_minutes: must be >= 3$/],
      ['scope is not patchable', { scope: 'user' }, /^body\.scope: unknown field$/],
    ];
    for (const [rule, patch, details] of patchRejected) {
      it(`PATCH rejects: ${rule}`, async () => {
        const id = await withChecks();
        const res = await ctx.api.patch(`/v1/automations/${id}`, patch);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(errorOf(res).details).to.match(details);
        // Nothing changed.
        expect((await ctx.api.get(`/v1/automations/${id}`)).body.automation.triggers).to.have.length(1);
      });
    }

    it('PATCH accepts: an empty vcs_check_names stops checks, then the PR trigger can go', async () => {
      const id = await withChecks();
      const cleared = await ctx.api.patch(`/v1/automations/${id}`, { vcs_check_names: [] });
      expect(cleared.status).to.equal(200);
      expect(cleared.body.automation.vcs_check_names).to.deep.equal([]);
      expect((await ctx.api.patch(`/v1/automations/${id}`, { triggers: [MR_OPENED] })).status).to.equal(200);
    });

    it('PATCH accepts: checks with a synchronize trigger in the same request', async () => {
      const id = await withChecks();
      const res = await ctx.api.patch(`/v1/automations/${id}`, { triggers: [PR_SYNC], vcs_check_names: ['a', 'b'] });
      expect(res.status).to.equal(200);
      expect(res.body.automation.vcs_check_names).to.deep.equal(['a', 'b']);
    });

    it('PATCH accepts: model and agent_provider cleared together', async () => {
      const id = await withChecks();
      const res = await ctx.api.patch(`/v1/automations/${id}`, { agent_provider: null, model: null, thinking_level: null, goal_mode: null });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.automation).to.include({ agent_provider: null, model: null, thinking_level: null, goal_mode: null });
    });
  });
});
