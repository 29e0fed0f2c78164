import { expect } from 'chai';
import { SandboxInputError } from '../../../src/sandbox/errors';
import { prepareRequest, resolveSandboxPath } from '../../../src/sandbox/request';

describe('sandbox request validation', () => {
  describe('resolveSandboxPath', () => {
    it('resolves ~ paths below /home/hangar', () => {
      expect(resolveSandboxPath('~/foo/bar.txt')).to.equal('/home/hangar/foo/bar.txt');
      expect(resolveSandboxPath('~/workspaces/x')).to.equal('/home/hangar/workspaces/x');
      expect(resolveSandboxPath('~//a/./b')).to.equal('/home/hangar/a/b');
      expect(resolveSandboxPath('/home/hangar/.npmrc')).to.equal('/home/hangar/.npmrc');
    });

    for (const bad of ['', '~', '~/', '~/.', 'foo', '/etc/passwd', '~/../root', '~/a/../../etc', '~/a/..', '/home/hangarx/a', '~user/a', '~/a\0b', `~/${'x'.repeat(256)}`]) {
      it(`rejects ${JSON.stringify(bad.slice(0, 20))}`, () => {
        expect(() => resolveSandboxPath(bad)).to.throw(SandboxInputError);
      });
    }
  });

  it('merges the environment over defaults and pins HOME', () => {
    const prepared = prepareRequest({ steps: [], env: { FOO: 'a=b', PATH: '/x', HOME: '/root' }, files: [] });
    expect(prepared.env).to.include('FOO=a=b');
    expect(prepared.env).to.include('PATH=/x');
    expect(prepared.env).to.include('HOME=/home/hangar');
    expect(prepared.env).not.to.include('HOME=/root');
  });

  it('rejects variable names a shell cannot use', () => {
    for (const name of ['1A', 'A-B', 'A B', '', 'A=B']) {
      expect(() => prepareRequest({ steps: [], env: { [name]: 'x' }, files: [] }), name).to.throw(SandboxInputError);
    }
  });

  it('keeps the last of two files with one path and refuses a file that is also a directory', () => {
    const prepared = prepareRequest({
      steps: [],
      env: {},
      files: [
        { path: '~/a.txt', content: 'one' },
        { path: '/home/hangar/a.txt', content: 'two' },
      ],
    });
    expect(prepared.files).to.deep.equal([{ path: '/home/hangar/a.txt', content: 'two' }]);
    expect(() =>
      prepareRequest({ steps: [], env: {}, files: [{ path: '~/a', content: '' }, { path: '~/a/b', content: '' }] }),
    ).to.throw(SandboxInputError, /also a directory/);
  });

  it('keeps step names to one printable line', () => {
    const prepared = prepareRequest({ steps: [{ name: 'x\ny', script: 'true' }], env: {}, files: [] });
    expect(prepared.steps[0]!.name).to.equal('x?y');
  });
});

describe('sandbox request limits', () => {
  it('refuses a timeout or output limit that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => prepareRequest({ steps: [], env: {}, files: [], timeoutMs: bad }), String(bad)).to.throw(SandboxInputError);
      expect(() => prepareRequest({ steps: [], env: {}, files: [], outputLimitBytes: bad }), String(bad)).to.throw(SandboxInputError);
    }
  });
});
