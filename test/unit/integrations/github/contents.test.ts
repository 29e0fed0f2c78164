import { expect } from 'chai';
import { GithubApiError } from '../../../../src/integrations/github/api';
import { createGithubContentsClient } from '../../../../src/integrations/github/contents';
import { ContentsTreeError, fetchContentsTree } from '../../../../src/integrations/github/contentsTree';
import { startFakeGithub, type FakeGithub } from '../../../support/fakeGithub';

const LIMITS = { maxFiles: 100, maxBytes: 1024 * 1024, maxDepth: 8, requiredFile: 'SKILL.md' };

describe('GitHub contents client', () => {
  let gh: FakeGithub;

  beforeEach(async () => {
    gh = await startFakeGithub({ staticToken: 'github_pat_static_123' });
    gh.contents.put('acme/skills/tools/lint', {
      'SKILL.md': '---\nname: lint\n---\nUse the rules.\n',
      'rules/style.md': 'Two spaces.\n',
      'rules/deep/more.md': 'Deeper.\n',
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]),
    });
  });
  afterEach(async () => {
    await gh.close();
  });

  const contentCalls = () => gh.calls.filter((c) => c.path.includes('/contents'));

  it('lists a directory, reads a file, and answers null for a missing path or repository', async () => {
    const client = createGithubContentsClient({ apiUrl: gh.url });
    const dir = await client.read({ owner: 'acme', repo: 'skills', path: 'tools/lint' });
    expect(dir).to.deep.equal({
      type: 'dir',
      entries: [
        { type: 'file', name: 'SKILL.md', size: 34 },
        { type: 'file', name: 'logo.png', size: 7 },
        { type: 'dir', name: 'rules', size: 0 },
      ],
    });
    const file = await client.read({ owner: 'acme', repo: 'skills', path: 'tools/lint/rules/style.md' });
    expect(file?.type === 'file' && file.content.toString()).to.equal('Two spaces.\n');
    expect(await client.read({ owner: 'acme', repo: 'skills', path: 'tools/nope' })).to.equal(null);
    expect(await client.read({ owner: 'nobody', repo: 'nothing', path: '' })).to.equal(null);
    // Unauthenticated without a token.
    expect(contentCalls().map((c) => c.authorization)).to.deep.equal([undefined, undefined, undefined, undefined]);
    expect(contentCalls()[0]!.path).to.equal('/repos/acme/skills/contents/tools/lint');
  });

  it('sends the token when one is configured, and fails on a bad one', async () => {
    await createGithubContentsClient({ apiUrl: gh.url, token: 'github_pat_static_123' }).read({ owner: 'acme', repo: 'skills', path: 'tools/lint/SKILL.md' });
    expect(contentCalls()[0]!.authorization).to.equal('Bearer github_pat_static_123');

    const bad = createGithubContentsClient({ apiUrl: gh.url, token: 'github_pat_wrong_456' });
    const err = await bad.read({ owner: 'acme', repo: 'skills', path: 'tools/lint' }).then(
      () => expect.fail('expected a 401'),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(GithubApiError).and.include({ status: 401, retryable: false });
    expect((err as Error).message).not.to.include('github_pat_wrong_456');
  });

  it('reports a rate limit as retryable', async () => {
    gh.failNext(1, 403, { pathPrefix: '/repos/acme/skills/contents' });
    const err = await createGithubContentsClient({ apiUrl: gh.url })
      .read({ owner: 'acme', repo: 'skills', path: 'tools/lint' })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(GithubApiError).and.include({ status: 403, retryable: true });
  });

  describe('a directory tree', () => {
    const tree = (path: string, limits = LIMITS) => fetchContentsTree(createGithubContentsClient({ apiUrl: gh.url }), { owner: 'acme', repo: 'skills', path }, limits);

    it('reads every text file below it and leaves binaries out', async () => {
      expect(await tree('tools/lint')).to.deep.equal({
        files: [
          { path: 'SKILL.md', content: '---\nname: lint\n---\nUse the rules.\n' },
          { path: 'rules/deep/more.md', content: 'Deeper.\n' },
          { path: 'rules/style.md', content: 'Two spaces.\n' },
        ],
        skipped: ['logo.png'],
      });
    });

    it('refuses a missing directory, a file, one without SKILL.md, and one over a limit', async () => {
      gh.contents.put('acme/skills/docs-only', { 'README.md': 'hi' });
      const refusal = (p: Promise<unknown>) => p.then(() => expect.fail('expected a refusal'), (e: Error) => (expect(e).to.be.instanceOf(ContentsTreeError), e.message));
      expect(await refusal(tree('tools/missing'))).to.equal('acme/skills/tools/missing was not found');
      expect(await refusal(tree('tools/lint/SKILL.md'))).to.equal('acme/skills/tools/lint/SKILL.md is not a directory');
      expect(await refusal(tree('docs-only'))).to.equal('acme/skills/docs-only has no SKILL.md at its root');
      expect(await refusal(tree('tools/lint', { ...LIMITS, maxFiles: 3 }))).to.equal('acme/skills/tools/lint has more than 3 files');
      expect(await refusal(tree('tools/lint', { ...LIMITS, maxBytes: 40 }))).to.equal('acme/skills/tools/lint is larger than 40 bytes');
      expect(await refusal(tree('tools/lint', { ...LIMITS, maxDepth: 1 }))).to.equal('acme/skills/tools/lint nests folders more than 1 deep');
    });
  });
});
