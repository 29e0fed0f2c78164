import { expect } from 'chai';
import { codeHostOf, effectivePlugins, githubWebHost, integrationsOf, pluginServerName } from '../../../src/domain/plugins';

const install = (id: string, slug: string, user_id: string | null, enabled = true) => ({ id, slug, user_id, enabled });

describe('plugins: which installs a workspace gets', () => {
  const installs = [
    install('org-docs', 'docs', null),
    install('org-github', 'github', null),
    install('alice-docs', 'docs', 'alice'),
    install('alice-notes', 'notes', 'alice'),
    install('bob-docs', 'docs', 'bob'),
    install('org-off', 'off', null, false),
  ];

  it("gives the owner's own install of a slug in place of the organization's", () => {
    expect(effectivePlugins(installs, 'alice').map((p) => p.id)).to.deep.equal(['alice-docs', 'org-github', 'alice-notes']);
  });

  it("gives another member the organization's, never someone else's", () => {
    expect(effectivePlugins(installs, 'bob').map((p) => p.id)).to.deep.equal(['bob-docs', 'org-github']);
    expect(effectivePlugins(installs, 'carol').map((p) => p.id)).to.deep.equal(['org-docs', 'org-github']);
  });

  it("gives an ownerless workspace (organization key) the organization's only", () => {
    expect(effectivePlugins(installs, null).map((p) => p.id)).to.deep.equal(['org-docs', 'org-github']);
  });

  it("treats a disabled install as absent: the organization's applies again", () => {
    const off = [install('org-docs', 'docs', null), install('alice-docs', 'docs', 'alice', false)];
    expect(effectivePlugins(off, 'alice').map((p) => p.id)).to.deep.equal(['org-docs']);
  });

  it("names the plugin's MCP server under Hangar's reserved prefix", () => {
    expect(pluginServerName('github')).to.equal('hangar-github');
  });
});

describe('plugins: integrations of a workspace', () => {
  const base = { repositoryHosts: [] as Array<'github' | 'gitlab'>, codeHostCredentials: { github: true, gitlab: false }, connections: { slack: false, linear: false }, provided: [] as never[] };

  it('knows code hosts from web, scp-like and ssh URLs, GitHub Enterprise included', () => {
    expect(codeHostOf('https://github.com/acme/app')).to.equal('github');
    expect(codeHostOf('git@github.com:acme/app.git')).to.equal('github');
    expect(codeHostOf('ssh://git@gitlab.com/acme/app')).to.equal('gitlab');
    expect(codeHostOf('https://gitlab.example.com/acme/app')).to.equal('gitlab');
    expect(codeHostOf('https://git.example.com/acme/app', githubWebHost('https://git.example.com/api/v3'))).to.equal('github');
    expect(codeHostOf('https://git.example.com/acme/app')).to.equal(null);
    expect(codeHostOf('file:///tmp/repo.git')).to.equal(null);
    expect(githubWebHost('https://api.github.com')).to.equal('github.com');
  });

  it('needs both the repositories and the credentials for a code host', () => {
    expect(integrationsOf({ ...base, repositoryHosts: ['github'] }).github).to.equal(true);
    expect(integrationsOf({ ...base, repositoryHosts: ['github'], codeHostCredentials: { github: false, gitlab: false } }).github).to.equal(false);
    expect(integrationsOf({ ...base, repositoryHosts: ['gitlab'] }).gitlab).to.equal(false);
    expect(integrationsOf(base).github).to.equal(false);
  });

  it('takes Slack and Linear from connections, and anything from a plugin', () => {
    expect(integrationsOf({ ...base, connections: { slack: true, linear: false } })).to.deep.equal({ github: false, gitlab: false, linear: false, slack: true, google: false });
    expect(integrationsOf({ ...base, provided: ['google', 'gitlab', 'linear'] as never[] })).to.deep.equal({ github: false, gitlab: true, linear: true, slack: false, google: true });
  });
});
