import { expect } from 'chai';
import { basename, fileDirectoryClash, normaliseHomePath } from '../../../src/services/environmentResources/paths';

const ok = (input: string) => {
  const check = normaliseHomePath(input);
  if (!check.ok) throw new Error(`expected ${JSON.stringify(input)} to be accepted: ${check.reason}`);
  return check.path;
};
const reason = (input: string, max?: number) => {
  const check = normaliseHomePath(input, max);
  if (check.ok) throw new Error(`expected ${JSON.stringify(input)} to be rejected, got ${check.path}`);
  return check.reason;
};

describe('environment file paths', () => {
  it('keeps paths under ~/ and ~/workspaces/ as they are', () => {
    expect(ok('~/.npmrc')).to.equal('~/.npmrc');
    expect(ok('~/workspaces/app/.env.local')).to.equal('~/workspaces/app/.env.local');
    expect(ok('~/dir with spaces/ünïcode.txt')).to.equal('~/dir with spaces/ünïcode.txt');
  });

  it('collapses repeated slashes and . segments', () => {
    expect(ok('~//a///b')).to.equal('~/a/b');
    expect(ok('~/./a/./b/.')).to.equal('~/a/b');
    expect(ok('~/a/.hidden/..more')).to.equal('~/a/.hidden/..more');
  });

  it('rejects paths outside the home directory', () => {
    expect(reason('/etc/passwd')).to.match(/must start with ~\//);
    expect(reason('relative/file')).to.match(/must start with ~\//);
    expect(reason('~root/.ssh/id_rsa')).to.match(/must start with ~\//);
    expect(reason('~')).to.match(/must start with ~\//);
  });

  it('rejects .. segments wherever they are', () => {
    expect(reason('~/../etc/passwd')).to.match(/\.\. segments/);
    expect(reason('~/a/../../b')).to.match(/\.\. segments/);
    expect(reason('~/a/..')).to.match(/\.\. segments/);
  });

  it('rejects NUL and other control characters', () => {
    expect(reason('~/a\u0000b')).to.match(/NUL/);
    expect(reason('~/a\nb')).to.match(/control characters/);
  });

  it('rejects directories and the bare home directory', () => {
    expect(reason('~/')).to.match(/must name a file/);
    expect(reason('~/a/')).to.match(/must name a file/);
    expect(reason('~/./.')).to.match(/must name a file under ~\//);
  });

  it('bounds the whole path and each segment', () => {
    expect(reason(`~/${'a'.repeat(30)}`, 20)).to.match(/at most 20 characters/);
    expect(ok(`~/${'a'.repeat(255)}`)).to.have.length(257);
    expect(reason(`~/${'a'.repeat(256)}`)).to.match(/255 bytes/);
    expect(reason(`~/${'é'.repeat(128)}`)).to.match(/255 bytes/);
  });

  it('takes the basename of a normalised path', () => {
    expect(basename('~/workspaces/app/.env')).to.equal('.env');
    expect(basename('~/file')).to.equal('file');
  });
});

describe('file and directory clashes', () => {
  it('refuses a file below another file, and a file above other files', () => {
    expect(fileDirectoryClash('~/a/b', ['~/a'])).to.equal('~/a is a file, so it cannot also be the directory of ~/a/b');
    expect(fileDirectoryClash('~/a', ['~/x', '~/a/b/c'])).to.equal('~/a is the directory of ~/a/b/c, so it cannot also be a file');
  });

  it('allows siblings and names that only share a prefix', () => {
    expect(fileDirectoryClash('~/a/b', ['~/a/c', '~/ab', '~/a.txt'])).to.equal(null);
    expect(fileDirectoryClash('~/ab/c', ['~/a'])).to.equal(null);
    expect(fileDirectoryClash('~/a', [])).to.equal(null);
  });
});
