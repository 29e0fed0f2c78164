import { expect } from 'chai';
import { extract, type Header } from 'tar-stream';
import { buildArchive } from '../../../src/sandbox/archive';
import { prepareRequest } from '../../../src/sandbox/request';

async function readTar(buf: Buffer): Promise<Array<{ header: Header; body: string }>> {
  const entries: Array<{ header: Header; body: string }> = [];
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => void chunks.push(c as Buffer));
      stream.on('end', () => {
        entries.push({ header, body: Buffer.concat(chunks).toString('utf8') });
        next();
      });
    });
    ex.on('finish', () => resolve());
    ex.on('error', reject);
  });
  ex.end(buf);
  await done;
  return entries;
}

describe('sandbox archive', () => {
  it('holds the step scripts and files, owned by uid 1000, with parent directories first', async () => {
    const { files } = prepareRequest({
      steps: [],
      env: {},
      files: [
        { path: '~/.ssh/id_ed25519', content: 'key' },
        { path: '~/a/b/c.txt', content: 'héllo' },
        { path: '~/top.txt', content: '' },
      ],
    });
    const steps = [
      { path: '/tmp/hangar/1-global.sh', script: 'echo one' },
      { path: '/tmp/hangar/2-source.sh', script: 'echo two' },
    ];
    const entries = await readTar(await buildArchive({ files, steps }));
    const names = entries.map((e) => e.header.name);
    expect(names).to.deep.equal([
      'tmp/hangar/',
      'tmp/hangar/1-global.sh',
      'tmp/hangar/2-source.sh',
      'home/hangar/.ssh/',
      'home/hangar/a/',
      'home/hangar/a/b/',
      'home/hangar/.ssh/id_ed25519',
      'home/hangar/a/b/c.txt',
      'home/hangar/top.txt',
    ]);
    for (const e of entries) {
      expect(e.header.uid, e.header.name).to.equal(1000);
      expect(e.header.gid, e.header.name).to.equal(1000);
    }
    const byName = new Map(entries.map((e) => [e.header.name, e]));
    expect(byName.get('tmp/hangar/2-source.sh')!.body).to.equal('echo two');
    expect(byName.get('home/hangar/a/b/c.txt')!.body).to.equal('héllo');
    expect(byName.get('home/hangar/.ssh/id_ed25519')!.header.mode).to.equal(0o600);
    expect(byName.get('home/hangar/.ssh/')!.header.type).to.equal('directory');
    expect(names.some((n) => n === 'home/' || n === 'home/hangar/')).to.equal(false);
  });

  it('keeps long paths whole', async () => {
    const long = `~/${'d'.repeat(120)}/${'e'.repeat(120)}/${'f'.repeat(200)}.txt`;
    const { files } = prepareRequest({ steps: [], env: {}, files: [{ path: long, content: 'x' }] });
    const entries = await readTar(await buildArchive({ files, steps: [] }));
    expect(entries.map((e) => e.header.name)).to.include(files[0]!.path.slice(1));
  });
});
