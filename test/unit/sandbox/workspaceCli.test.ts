/**
 * The in-workspace `hangar` CLI (scripts/sandbox-image/cli) and the turn supervisor
 * (scripts/sandbox-image/turn) are Go; their own tests run with the same toolchain the image
 * build uses (`go` on PATH, /usr/local/go/bin/go, or HANGAR_GO).
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

function goTest(dir: string): void {
  const run = spawnSync(goBinary(), ['test', './...'], {
    cwd: join(__dirname, '../../../scripts/sandbox-image', dir),
    encoding: 'utf8',
    env: { ...process.env, CGO_ENABLED: '0', GOTOOLCHAIN: 'local', GOPROXY: 'off', GOWORK: 'off', GOFLAGS: '' },
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
}

describe('the in-workspace Go programs', function () {
  this.timeout(180_000);

  it('the hangar CLI passes its Go tests', () => goTest('cli'));

  it('the turn supervisor (hangar-turn) passes its Go tests', () => goTest('turn'));
});
