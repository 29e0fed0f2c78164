/**
 * The in-workspace `hangar` CLI is Go (scripts/sandbox-image/cli); its own tests run with the
 * same toolchain the image build uses (`go` on PATH, /usr/local/go/bin/go, or HANGAR_GO).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

function goBinary(): string {
  if (process.env.HANGAR_GO) return process.env.HANGAR_GO;
  const onPath = spawnSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  if (existsSync('/usr/local/go/bin/go')) return '/usr/local/go/bin/go';
  throw new Error('the Go toolchain is needed to build and test the workspace CLI (as for the sandbox image)');
}

describe('the in-workspace hangar CLI', function () {
  this.timeout(180_000);

  it('passes its Go tests', () => {
    const dir = join(__dirname, '../../../scripts/sandbox-image/cli');
    const run = spawnSync(goBinary(), ['test', './...'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CGO_ENABLED: '0', GOTOOLCHAIN: 'local', GOPROXY: 'off', GOWORK: 'off', GOFLAGS: '' },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
  });
});
