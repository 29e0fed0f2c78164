/** Local bare git repositories for tests: a real `file://` remote with one commit on main. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function createBareRepo(name: string, files: Record<string, string> = { 'README.md': `# ${name}\n` }): Promise<{ url: string; path: string }> {
  const root = mkdtempSync(join(tmpdir(), 'hangar-git-'));
  const bare = join(root, `${name}.git`);
  const work = join(root, 'work');
  await run('git', ['init', '--quiet', '--bare', '--initial-branch', 'main', bare]);
  await run('git', ['init', '--quiet', '--initial-branch', 'main', work]);
  for (const [file, content] of Object.entries(files)) writeFileSync(join(work, file), content);
  const git = (...args: string[]) => run('git', ['-C', work, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args]);
  await git('add', '-A');
  await git('commit', '--quiet', '-m', 'initial commit');
  await git('push', '--quiet', bare, 'main');
  return { url: `file://${bare}`, path: bare };
}
