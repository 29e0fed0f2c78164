// Automations: the list and a create form, one automation with its runs, and one run with
// the live events of the workspace it started.

import { get, post } from './api.js';
import { errorLine, fill, h, status, table, when } from './dom.js';
import { eventLog } from './events.js';

const TRIGGERS = {
  custom: 'Custom webhook',
  cron: 'Schedule (cron)',
};

function triggerText(triggers) {
  return triggers.map((t) => (t.type === 'cron' && t.config?.schedule ? `cron ${t.config.schedule}` : t.type)).join(', ');
}

function createForm(environments, onCreated) {
  const schedule = h('input', { id: 'automation-schedule', name: 'schedule', value: '0 9 * * 1-5', placeholder: '0 9 * * 1-5' });
  const scheduleRow = h('div', { class: 'field', hidden: true }, h('label', { for: 'automation-schedule' }, 'Schedule (UTC cron)'), schedule);
  const trigger = h('select', { id: 'automation-trigger', name: 'trigger' }, Object.entries(TRIGGERS).map(([value, label]) => h('option', { value }, label)));
  trigger.addEventListener('change', () => (scheduleRow.hidden = trigger.value !== 'cron'));
  const message = h('div');
  const form = h(
    'form',
    { class: 'card', id: 'create-automation' },
    h('h2', {}, 'New automation'),
    h('div', { class: 'field' }, h('label', { for: 'automation-name' }, 'Name'), h('input', { id: 'automation-name', name: 'name', required: true, maxlength: 200 })),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'automation-environment' }, 'Environment'),
      h('select', { id: 'automation-environment', name: 'environment', required: true }, environments.map((e) => h('option', { value: e.id }, e.name))),
    ),
    h('div', { class: 'field' }, h('label', { for: 'automation-trigger' }, 'Trigger'), trigger),
    scheduleRow,
    h('div', { class: 'field' }, h('label', { for: 'automation-prompt' }, 'Prompt'), h('textarea', { id: 'automation-prompt', name: 'prompt', rows: 4, required: true })),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'enabled', checked: true }), ' Enabled'),
    h('button', { type: 'submit' }, 'Create automation'),
    message,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const triggerBody = data.get('trigger') === 'cron' ? { type: 'cron', config: { schedule: String(data.get('schedule')) } } : { type: 'custom', config: {} };
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      const { automation } = await post('/v1/automations', {
        name: String(data.get('name')).trim(),
        prompt: String(data.get('prompt')),
        environment_id: String(data.get('environment')),
        triggers: [triggerBody],
        enabled: data.get('enabled') === 'on',
      });
      form.reset();
      scheduleRow.hidden = true;
      fill(message, h('p', { class: 'ok', role: 'status' }, 'Created ', h('a', { href: `#/automations/${automation.id}` }, automation.name), '.'));
      await onCreated();
    } catch (err) {
      fill(message, errorLine(err));
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export async function automationsPage(signal) {
  const listBox = h('div', { id: 'automation-list' });
  const load = async () => {
    const { automations, total } = await get('/v1/automations?scope=all&limit=100', { signal });
    fill(
      listBox,
      h('p', { class: 'muted' }, `${total} automation${total === 1 ? '' : 's'}`),
      table(
        automations,
        [
          ['Name', (a) => h('a', { href: `#/automations/${a.id}` }, a.name)],
          ['Triggers', (a) => triggerText(a.triggers)],
          ['Enabled', (a) => (a.enabled ? 'yes' : 'no')],
          ['Scope', (a) => (a.user_id ? 'personal' : 'organization')],
          ['Created', (a) => when(a.created_at)],
        ],
        'No automations yet.',
      ),
    );
  };
  const [{ environments }] = await Promise.all([get('/v1/environments?scope=all&limit=100', { signal }), load()]);
  return h('div', { class: 'page' }, h('h1', {}, 'Automations'), h('div', { class: 'columns' }, listBox, createForm(environments, load)));
}

export async function automationPage(signal, id) {
  const { automation } = await get(`/v1/automations/${id}`, { signal });
  const runsBox = h('div', { id: 'runs' });
  const loadRuns = async () => {
    const { executions } = await get(`/v1/automations/${id}/executions?limit=50`, { signal });
    fill(
      runsBox,
      table(
        executions,
        [
          ['Run', (r) => h('a', { href: `#/automations/${id}/runs/${r.id}` }, when(r.triggered_at))],
          ['Status', (r) => status(r.status)],
          ['Workspace', (r) => (r.workspace_id ? h('a', { href: `#/workspaces/${r.workspace_id}` }, r.workspace_id.slice(0, 8)) : '—')],
          ['Error', (r) => r.error ?? ''],
        ],
        'No runs yet.',
      ),
    );
  };
  await loadRuns();
  const message = h('div');
  const runNow = h('button', { type: 'button', id: 'run-now' }, 'Run now');
  runNow.addEventListener('click', async () => {
    runNow.disabled = true;
    try {
      const { execution_id } = await post(`/v1/automations/${id}/trigger`);
      location.hash = `#/automations/${id}/runs/${execution_id}`;
    } catch (err) {
      fill(message, errorLine(err));
      runNow.disabled = false;
    }
  });
  return h(
    'div',
    { class: 'page' },
    h('p', {}, h('a', { href: '#/automations' }, '← Automations')),
    h('h1', {}, automation.name),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Triggers'),
      h('dd', {}, triggerText(automation.triggers)),
      h('dt', {}, 'Enabled'),
      h('dd', {}, automation.enabled ? 'yes' : 'no'),
      h('dt', {}, 'Next scheduled run'),
      h('dd', {}, when(automation.cron_next_fire_at)),
      h('dt', {}, 'Prompt'),
      h('dd', {}, h('pre', { class: 'prompt' }, automation.prompt)),
    ),
    h('div', { class: 'actions' }, runNow, ' ', h('button', { type: 'button', onclick: () => void loadRuns().catch((err) => fill(message, errorLine(err))) }, 'Refresh')),
    message,
    h('h2', {}, 'Runs'),
    runsBox,
  );
}

export async function runPage(signal, automationId, runId) {
  // Runs are read from the history page by page; a run just started is on the first one.
  let run = null;
  for (let page = 1; !run && page <= 20; page++) {
    const { executions, totalPages } = await get(`/v1/automations/${automationId}/executions?limit=100&page=${page}`, { signal });
    run = executions.find((e) => e.id === runId) ?? null;
    if (page >= totalPages) break;
  }
  if (!run) throw new Error('This run is not in the automation\u2019s history.');
  const back = h('p', {}, h('a', { href: `#/automations/${automationId}` }, '← Automation'));
  const facts = h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Status'),
    h('dd', { id: 'run-status' }, status(run.status)),
    h('dt', {}, 'Triggered'),
    h('dd', {}, when(run.triggered_at)),
    h('dt', {}, 'Completed'),
    h('dd', {}, when(run.completed_at)),
    h('dt', {}, 'Workspace'),
    h('dd', {}, run.workspace_id ? h('a', { href: `#/workspaces/${run.workspace_id}` }, run.workspace_id) : 'not created yet'),
    run.error ? [h('dt', {}, 'Error'), h('dd', { class: 'error' }, run.error)] : null,
    h('dt', {}, 'Trigger payload'),
    h('dd', {}, h('pre', {}, JSON.stringify(run.trigger_payload, null, 2))),
  );
  const events = run.workspace_id
    ? eventLog(run.workspace_id, { signal, title: 'Events of its workspace', replay: true })
    : h('p', { class: 'muted' }, 'The run has no workspace yet; its events appear here once it does (reload).');
  return h('div', { class: 'page' }, back, h('h1', {}, 'Run'), facts, events);
}
