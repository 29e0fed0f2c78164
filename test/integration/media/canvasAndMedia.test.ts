/**
 * Canvas and media through the public API, with the real worker, Docker and storage: the test
 * agent leaves files in ~/.hangar/canvas/ (a plan, an image, a file over 5 MB, a symlink to
 * /etc/passwd); media is uploaded with an API key and from inside the workspace with the
 * `hangar` CLI, read through signed links (attachment, inline, ranges), and goes with the
 * deleted workspace.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createSignedLinks } from '../../../src/crypto/signedLinks';
import { execInContainer } from '../../support/containerExec';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { expectShape } from '../../support/originalShapes';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const CANVAS = '/home/hangar/.hangar/canvas';

async function upload(key: string, replicaId: string, filename: string, bytes: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${harness().baseUrl}/v1/replica/${replicaId}/media?filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream', ...headers },
    body: bytes,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A link as the test reaches it (the link's origin is the API's as the request named it). */
const local = (url: string) => harness().baseUrl + new URL(url).pathname + new URL(url).search;

async function open(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(local(url), { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('canvas and media', function () {
  this.timeout(300_000);
  let org: Awaited<ReturnType<typeof newOrg>>;
  let api: ReturnType<typeof as>;
  let replicaId: string;
  const exec = (cmd: string) => execInContainer(`hangar-ws-${replicaId}`, cmd);

  before(async () => {
    org = await newOrg('media');
    api = as(org.org_api_key);
    const message = [
      `!write ${CANVAS}/plan.md # Plan — step one`,
      `!run printf '\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\x0dIHDR' > ${CANVAS}/shot.png`,
      `!run head -c 6000000 /dev/zero > ${CANVAS}/big.mp4`,
      `!run ln -s /etc/passwd ${CANVAS}/passwd.md && mkdir -p ${CANVAS}/nested && echo hidden > ${CANVAS}/nested/inner.md`,
      'Done',
    ].join('\n');
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'canvas', coding_agent: 'agent_1', message } });
    expect(created.status).to.equal(201);
    replicaId = created.body.replica.id;
    await until('the agent to leave its canvas', async () => (await exec(`ls ${CANVAS}`)).includes('nested'), 180_000, 500);
  });

  it('lists the canvas: regular files with kinds and sizes, no symlink, no subdirectory', async () => {
    const res = await api.get(`/v1/replica/${replicaId}/canvas`);
    expect(res.status).to.equal(200);
    expectShape('CanvasListResponse', res.body);
    expect(res.body.items).to.deep.equal([
      { filename: 'big.mp4', kind: 'video', sizeBytes: 6_000_000 },
      { filename: 'plan.md', kind: 'markdown', sizeBytes: Buffer.byteLength('# Plan — step one\n') },
      { filename: 'shot.png', kind: 'image', sizeBytes: PNG.length },
    ]);
  });

  it('reads text as content, binary as base64, and over 5 MB only says tooLarge', async () => {
    const plan = await api.get(`/v1/replica/${replicaId}/canvas/plan.md`);
    expect(plan.status).to.equal(200);
    expectShape('CanvasContentResponse', plan.body);
    expect(plan.body).to.deep.equal({ filename: 'plan.md', kind: 'markdown', sizeBytes: Buffer.byteLength('# Plan — step one\n'), mimeType: 'text/markdown; charset=utf-8', content: '# Plan — step one\n' });

    const shot = await api.get(`/v1/replica/${replicaId}/canvas/shot.png`);
    expectShape('CanvasContentResponse', shot.body);
    expect(shot.body).to.include({ kind: 'image', mimeType: 'image/png', sizeBytes: PNG.length });
    expect(Buffer.from(shot.body.base64, 'base64').equals(PNG)).to.equal(true);
    expect(shot.body).not.to.have.property('content');

    const big = await api.get(`/v1/replica/${replicaId}/canvas/big.mp4`);
    expectShape('CanvasContentResponse', big.body);
    expect(big.body).to.deep.equal({ filename: 'big.mp4', kind: 'video', sizeBytes: 6_000_000, mimeType: 'video/mp4', tooLarge: true });
    // Reads leave no copy behind in storage.
    expect(existsSync(join(harness().config.dataDir, 'blobs', 'replicas', replicaId, 'canvas'))).to.satisfy(
      (present: boolean) => !present || readdirSync(join(harness().config.dataDir, 'blobs', 'replicas', replicaId, 'canvas')).length === 0,
    );
  });

  it('refuses every way out of the canvas directory', async () => {
    for (const name of ['..%2F..%2F..%2Fetc%2Fpasswd', '..%2F', 'nested%2Finner.md', 'a%00.md', '..%5C..%5Cetc']) {
      const res = await api.get(`/v1/replica/${replicaId}/canvas/${name}`);
      expect(res.status, name).to.equal(400);
      // A NUL is refused with every path parameter; the others by the canvas's own rule.
      expect(errorOf(res).error).to.equal(name.includes('%00') ? 'Invalid path parameter' : 'Invalid filename');
      expect(errorOf(res).details).to.match(/filename/);
    }
    // A symlink in the directory is not followed (its target is /etc/passwd), a directory is no item.
    for (const name of ['passwd.md', 'nested', 'missing.md']) {
      const res = await api.get(`/v1/replica/${replicaId}/canvas/${name}`);
      expect(res.status, name).to.equal(404);
      expect(errorOf(res).error).to.equal('Canvas item not found');
    }
  });

  it("is another organization's 404", async () => {
    const other = as((await newOrg('other')).org_api_key);
    for (const path of [`/v1/replica/${replicaId}/canvas`, `/v1/replica/${replicaId}/canvas/plan.md`, `/v1/replica/${replicaId}/media`]) {
      const res = await other.get(path);
      expect(res.status, path).to.equal(404);
      expect(errorOf(res).error).to.equal('Replica not found');
    }
    const res = await upload((await newOrg('other')).org_api_key, replicaId, 'x.png', PNG);
    expect(res.status).to.equal(404);
  });

  let video: Buffer;
  let videoId: string;

  it('stores an upload, lists it, and serves a download link with the exact bytes', async () => {
    video = randomBytes(300_000);
    const uploaded = await upload(org.org_api_key, replicaId, '../clip "one".mp4', video);
    expect(uploaded.status).to.equal(201);
    const media = uploaded.body.media;
    expect(media).to.include({ replica_id: replicaId, filename: 'clip one.mp4', kind: 'video', mime_type: 'video/mp4', size_bytes: video.length });
    videoId = media.id;

    const listed = await api.get(`/v1/replica/${replicaId}/media`);
    expect(listed.body).to.include({ total: 1, page: 1, totalPages: 1 });
    expect(listed.body.media.map((m: { id: string }) => m.id)).to.deep.equal([videoId]);
    expect((await api.get(`/v1/replica/${replicaId}/media/${videoId}`)).body.media).to.deep.equal(media);

    const link = await api.post(`/v1/replica/${replicaId}/media/${videoId}/links`, { disposition: 'attachment' });
    expect(link.status).to.equal(201);
    const ttl = new Date(link.body.expires_at).getTime() - Date.now();
    expect(ttl).to.be.within(890_000, 901_000); // 15 minutes by default
    const download = await open(link.body.url);
    expect(download.status).to.equal(200);
    expect(download.bytes.equals(video)).to.equal(true);
    expect(download.headers.get('content-disposition')).to.equal(`attachment; filename="clip one.mp4"; filename*=UTF-8''clip%20one.mp4`);
    expect(download.headers.get('content-type')).to.equal('video/mp4');
    expect(download.headers.get('accept-ranges')).to.equal('bytes');
    expect(download.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it('serves ranges (206) and refuses one past the end (416)', async () => {
    const link = (await api.post(`/v1/replica/${replicaId}/media/${videoId}/links`, { disposition: 'inline' })).body;
    const part = await open(link.url, { range: 'bytes=1000-1999' });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes 1000-1999/${video.length}`);
    expect(part.bytes.equals(video.subarray(1000, 2000))).to.equal(true);
    const tail = await open(link.url, { range: 'bytes=-100' });
    expect(tail.status).to.equal(206);
    expect(tail.bytes.equals(video.subarray(video.length - 100))).to.equal(true);
    const beyond = await open(link.url, { range: `bytes=${video.length}-` });
    expect(beyond.status).to.equal(416);
    expect(beyond.headers.get('content-range')).to.equal(`bytes */${video.length}`);
  });

  it('previews HTML and SVG inline under a policy that runs no script', async () => {
    const html = Buffer.from('<script>alert(document.cookie)</script><h1>hi</h1>');
    const uploaded = await upload(org.org_api_key, replicaId, 'page.html', html);
    expect(uploaded.body.media).to.include({ kind: 'other', mime_type: 'text/html; charset=utf-8' });
    const link = (await api.post(`/v1/replica/${replicaId}/media/${uploaded.body.media.id}/links`, { disposition: 'inline', expires_in_seconds: 60 })).body;
    const page = await open(link.url);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('content-disposition')).to.match(/^inline; filename="page.html"/);
    expect(page.headers.get('x-content-type-options')).to.equal('nosniff');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'none'").and.include('sandbox');
    expect(csp).not.to.include('script-src');

    const svg = await upload(org.org_api_key, replicaId, 'logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    expect(svg.body.media).to.include({ kind: 'image', mime_type: 'image/svg+xml' });
    expect(svg.body.markdown).to.match(/^!\[logo\.svg\]\(<http.+>\)$/);
    const shown = await open(svg.body.embed_url);
    expect(shown.headers.get('content-type')).to.equal('image/svg+xml');
    expect(shown.headers.get('content-security-policy')).to.include('sandbox');
  });

  it('refuses forged, expired and foreign links, and a link longer than allowed', async () => {
    const link = (await api.post(`/v1/replica/${replicaId}/media/${videoId}/links`, {})).body.url as string;
    const token = new URL(link).searchParams.get('token')!;
    const withToken = (t: string, id = videoId) => `${harness().baseUrl}/v1/replica/${replicaId}/media/${id}/content?token=${encodeURIComponent(t)}`;
    const forged = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    const links = createSignedLinks(harness().config.encryptionKeys);
    const expired = links.sign('media', { r: replicaId, m: videoId, d: 'attachment' }, new Date(Date.now() - 1000));
    const otherPurpose = links.sign('preview', { r: replicaId, m: videoId, d: 'attachment' }, new Date(Date.now() + 60_000));
    for (const url of [withToken(forged), withToken(expired), withToken(otherPurpose), withToken(token, uploadedElsewhere())]) {
      const res = await fetch(url);
      expect(res.status, url).to.equal(404);
      expect(errorOf({ status: res.status, body: await res.json(), headers: res.headers }).error).to.equal('Media not found');
    }
    const tooLong = await api.post(`/v1/replica/${replicaId}/media/${videoId}/links`, { expires_in_seconds: 31 * 86400 });
    expect(tooLong.status).to.equal(400);
  });

  it('refuses an upload over the limit and one without a name', async () => {
    const noName = await fetch(`${harness().baseUrl}/v1/replica/${replicaId}/media`, { method: 'POST', headers: { authorization: `Bearer ${org.org_api_key}` }, body: 'x' });
    expect(noName.status).to.equal(400);
    // Declared over the limit: 413 from the header, before any byte is stored.
    const huge = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${harness().baseUrl}/v1/replica/${replicaId}/media?filename=huge.bin`);
      const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${org.org_api_key}`, 'content-length': String(harness().config.media.maxBytes + 1) } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on('error', reject);
      req.write(Buffer.alloc(16));
    });
    expect(huge).to.equal(413);
    expect((await api.get(`/v1/replica/${replicaId}/media`)).body.media.map((m: { filename: string }) => m.filename)).not.to.include('huge.bin');
  });

  it('uploads from inside the workspace with the hangar CLI, which prints markdown embeds', async () => {
    const out = await exec(`printf 'cli-bytes' > /tmp/from-cli.png && hangar media upload /tmp/from-cli.png && hangar media list`);
    const embed = /^!\[from-cli\.png\]\(<(http[^>]+)>\)$/m.exec(out);
    expect(embed, out).to.not.equal(null);
    const shown = await open(embed![1]!);
    expect(shown.status).to.equal(200);
    expect(shown.bytes.toString()).to.equal('cli-bytes');
    expect(shown.headers.get('content-type')).to.equal('image/png');
    expect(shown.headers.get('content-disposition')).to.match(/^inline;/);
    expect(out).to.match(/\timage\t9\t.*\tfrom-cli\.png$/m);
    const listed = (await api.get(`/v1/replica/${replicaId}/media?limit=100`)).body.media;
    expect(listed.find((m: { filename: string }) => m.filename === 'from-cli.png')).to.include({ kind: 'image', size_bytes: 9 });
  });

  it("lets a workspace's engine secret reach only its own workspace", async () => {
    const secret = (await exec('printf %s "$HANGAR_ENGINE_SECRET"')).trim();
    const sibling = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'sibling', coding_agent: 'agent_1', message: 'hello' } });
    const siblingId = sibling.body.replica.id as string;
    const engine = { 'x-workspace-id': replicaId };
    const own = await upload(secret, replicaId, 'own.png', PNG, engine);
    expect(own.status).to.equal(201);
    const foreign = await upload(secret, siblingId, 'foreign.png', PNG, engine);
    expect(foreign.status).to.equal(404);
    const foreignList = await request('GET', `/v1/replica/${siblingId}/media`, { key: secret, headers: engine });
    expect(foreignList.status).to.equal(404);
    // The organization's key reaches the sibling, so the 404 above was the boundary.
    expect((await upload(org.org_api_key, siblingId, 'org.png', PNG)).status).to.equal(201);
    await api.delete(`/v1/replica/${siblingId}`);
  });

  it('reads the canvas of a sleeping workspace without waking it', async () => {
    expect((await api.post(`/v1/replica/${replicaId}/sleep`)).status).to.equal(200);
    const status = async () => (await harness().database.db('replicas').where({ id: replicaId }).first('status'))?.status;
    await until('the workspace to sleep', async () => (await status()) === 'sleeping', 60_000);
    const listed = await api.get(`/v1/replica/${replicaId}/canvas`);
    expect(listed.body.items.map((i: { filename: string }) => i.filename)).to.deep.equal(['big.mp4', 'plan.md', 'shot.png']);
    expect((await api.get(`/v1/replica/${replicaId}/canvas/plan.md`)).body.content).to.equal('# Plan — step one\n');
    expect(await status()).to.equal('sleeping');
  });

  it("deletes the workspace's media with it: links answer 404 at once, the stored files go", async () => {
    const link = (await api.post(`/v1/replica/${replicaId}/media/${videoId}/links`, {})).body.url as string;
    expect((await open(link)).status).to.equal(200);
    expect((await api.delete(`/v1/replica/${replicaId}`)).status).to.equal(200);
    expect((await open(link)).status).to.equal(404);
    const dir = join(harness().config.dataDir, 'blobs', 'replicas', replicaId);
    await until('the media rows and files to be gone', async () => {
      const rows = await harness().database.db('media').where({ replica_id: replicaId }).count({ n: '*' });
      return Number(rows[0]!.n) === 0 && !existsSync(dir);
    }, 60_000);
  });
});

/** A media id nobody uploaded: a valid token for one file opens no other. */
function uploadedElsewhere(): string {
  return '00000000-0000-4000-8000-000000000000';
}
