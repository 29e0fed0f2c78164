import { expect } from 'chai';
import { pluginMcpServers } from '../../../src/worker/plugins';
import { parseEncryptionKeys } from '../../../src/config';
import { createSecretBox, generateEncryptionKey } from '../../../src/crypto/secretBox';
import { sealedField } from '../../../src/crypto/sealedFields';
import type { PluginInstallRow } from '../../../src/db/pluginsRepository';

const box = createSecretBox(parseEncryptionKeys(generateEncryptionKey('unit')));
const WS = '00000000-0000-4000-8000-0000000000aa';

const install = (id: string, slug: string, kind: PluginInstallRow['kind'], user_id: string | null, config: unknown = null, secret: string | null = null) =>
  ({
    id,
    slug,
    kind,
    user_id,
    enabled: true,
    config_sealed: config ? box.seal(JSON.stringify(config), sealedField('plugin_installs', 'config_sealed', id)) : null,
    secret_sealed: secret ? box.seal(secret, sealedField('plugin_installs', 'secret_sealed', id)) : null,
  }) as PluginInstallRow;
const engineSecret = box.seal('engine-secret', sealedField('replicas', 'engine_secret_sealed', WS));

describe("plugins: a workspace's plugins in its agent's MCP config", () => {
  const rows = [
    install('i-docs-org', 'docs', 'http', null, { url: 'https://docs.test/mcp', headers: {} }, 'org-secret'),
    install('i-docs-alice', 'docs', 'http', 'alice', { url: 'https://docs.test/mcp', headers: {} }, 'alice-secret'),
    install('i-github', 'github', 'native', null),
    install('i-local', 'local', 'stdio', 'alice', { command: 'node', args: ['s.js'], env: { MODE: 'ro' } }),
  ];
  const deps = { repos: { plugins: { forWorkspace: async () => rows } } as never, secretBox: box, workspaceApiUrl: 'http://host.test:8080/' };

  it("points http and native plugins at Hangar's endpoint with the engine secret, and runs stdio ones as configured", async () => {
    const servers = await pluginMcpServers(deps, { id: WS, organization_id: 'org', user_id: 'alice', engine_secret_sealed: engineSecret });
    expect(servers).to.deep.equal({
      'hangar-docs': { transport: 'http', url: `http://host.test:8080/v1/workspaces/${WS}/plugins/i-docs-alice/mcp`, headers: { Authorization: 'Bearer engine-secret', 'X-Workspace-Id': WS } },
      'hangar-github': { transport: 'http', url: `http://host.test:8080/v1/workspaces/${WS}/plugins/i-github/mcp`, headers: { Authorization: 'Bearer engine-secret', 'X-Workspace-Id': WS } },
      'hangar-local': { transport: 'stdio', command: 'node', args: ['s.js'], env: { MODE: 'ro' } },
    });
    expect(JSON.stringify(servers)).not.to.include('alice-secret').and.not.include('org-secret');
  });

  it("gives another member's workspace the organization's", async () => {
    const servers = await pluginMcpServers(deps, { id: WS, organization_id: 'org', user_id: 'bob', engine_secret_sealed: engineSecret });
    expect(Object.keys(servers)).to.deep.equal(['hangar-docs', 'hangar-github']);
    expect((servers['hangar-docs'] as { url: string }).url).to.include('/plugins/i-docs-org/');
  });
});
