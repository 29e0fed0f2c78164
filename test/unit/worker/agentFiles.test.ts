import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { checkedArgv, fileSums, STALE_FILES_MARKER } from '../../../src/worker/agentFiles';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('agent configuration files checked in the CLI’s exec', () => {
  it('lists each file’s SHA-256 against its absolute path, a later file of the same path winning', () => {
    const sums = fileSums([
      { path: '~/.codex/config.toml', content: 'old' },
      { path: '~/.pi/agent/models.json', content: '{}\n' },
      { path: '/home/hangar/.codex/config.toml', content: 'model_provider = "hangar"\n' },
    ]);
    expect(sums).to.equal(`${sha('{}\n')}  /home/hangar/.pi/agent/models.json\n${sha('model_provider = "hangar"\n')}  /home/hangar/.codex/config.toml\n`);
  });

  it('puts the check in front of the CLI only when there are files, and execs the CLI in place of the shell', () => {
    const argv = ['codex', 'exec', '--json', '--', 'hi'];
    expect(checkedArgv([], argv)).to.deep.equal(argv);
    const checked = checkedArgv([{ path: '~/.codex/config.toml', content: 'x' }], argv);
    expect(checked.slice(0, 2)).to.deep.equal(['bash', '-c']);
    expect(checked[2]).to.include('sha256sum --check --status').and.to.include(`echo ${STALE_FILES_MARKER}`).and.to.include('exec "$@"');
    expect(checked.slice(4)).to.deep.equal([`${sha('x')}  /home/hangar/.codex/config.toml\n`, ...argv]);
  });
});
