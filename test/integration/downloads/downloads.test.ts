/**
 * Downloads through the public API (no key): releases published in the harness's releases
 * directory, the 302 to a signed link Hangar serves, the update check, and links that must
 * not open anything (forged, expired, another purpose's, withdrawn).
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { createSignedLinks } from '../../../src/crypto/signedLinks';
import { harness, releasesDir } from '../../support/harness';
import { errorOf, request } from '../../support/http';

/** Publishes as an operator should: files first, then the manifest replaced in one rename. */
async function publish(manifest: unknown, files: Record<string, Buffer | string> = {}) {
  for (const [name, content] of Object.entries(files)) await writeFile(join(releasesDir(), name), content);
  const tmp = join(releasesDir(), `.manifest-${randomBytes(4).toString('hex')}`);
  await writeFile(tmp, typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  await rename(tmp, join(releasesDir(), 'manifest.json'));
}

const release = (version: string, files: Record<string, string>, extra: Record<string, unknown> = {}) => ({ version, notes: `What is new in ${version}`, pub_date: '2026-03-01T12:00:00Z', files, ...extra });

describe('downloads: desktop app releases', () => {
  const arm = randomBytes(300_000);
  const x64 = randomBytes(1000);

  beforeEach(async () => {
    await publish(
      {
        releases: [
          release('0.9.0', { 'macos-arm64': 'Hangar-0.9.0-arm64.dmg', 'macos-x64': 'Hangar-0.9.0-x64.dmg' }),
          release('0.10.0', { 'macos-arm64': 'Hangar-0.10.0-arm64.dmg', 'linux-x64': 'hangar-0.10.0-linux-x64' }, { name: 'Hangar 0.10 "Ten"' }),
          release('0.11.0-beta.1', { 'macos-arm64': 'Hangar-0.11.0-beta.1-arm64.dmg' }),
        ],
      },
      { 'Hangar-0.10.0-arm64.dmg': arm, 'Hangar-0.9.0-x64.dmg': x64, 'Hangar-0.9.0-arm64.dmg': 'old', 'hangar-0.10.0-linux-x64': 'cli' },
    );
  });

  it('redirects to a short-lived link of the newest release, which serves its bytes', async () => {
    const res = await fetch(`${harness().baseUrl}/v1/desktop/download/macos/arm64`, { redirect: 'manual' });
    expect(res.status).to.equal(302);
    const location = res.headers.get('location')!;
    expect(location).to.match(new RegExp(`^${harness().baseUrl}/v1/desktop/files/`));

    const file = await fetch(location);
    expect(file.status).to.equal(200);
    expect(file.headers.get('content-length')).to.equal(String(arm.length));
    expect(file.headers.get('content-disposition')).to.include('attachment; filename="Hangar-0.10.0-arm64.dmg"');
    expect(Buffer.from(await file.arrayBuffer()).equals(arm)).to.equal(true);

    // Following the redirect as a browser does, and a resumed download of the rest.
    const followed = await fetch(`${harness().baseUrl}/v1/desktop/download/macos/x64`);
    expect(Buffer.from(await followed.arrayBuffer()).equals(x64)).to.equal(true);
    const part = await fetch(location, { headers: { range: 'bytes=1000-' } });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes 1000-${arm.length - 1}/${arm.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(arm.subarray(1000))).to.equal(true);
    expect((await fetch(location, { headers: { range: `bytes=${arm.length}-` } })).status).to.equal(416);
  });

  it('answers the update check: newer → 200 with the release, current → 204', async () => {
    const newer = await request('GET', '/v1/desktop/update/macos/arm64/0.9.0');
    expect(newer.status).to.equal(200);
    expect(newer.body).to.include({ name: 'Hangar 0.10 "Ten"', notes: 'What is new in 0.10.0', pub_date: '2026-03-01T12:00:00.000Z' });
    expect(Object.keys(newer.body).sort()).to.deep.equal(['name', 'notes', 'pub_date', 'url']);
    const bytes = Buffer.from(await (await fetch(newer.body.url)).arrayBuffer());
    expect(bytes.equals(arm)).to.equal(true);

    // 0.10.0 is newer than 0.9.0 by semantic version; the beta is never offered.
    const current = await request('GET', '/v1/desktop/update/macos/arm64/0.10.0');
    expect(current.status).to.equal(204);
    expect(current.body).to.equal('');
    expect((await request('GET', '/v1/desktop/update/macos/x64/0.9.0')).status).to.equal(204);
    expect((await request('GET', '/v1/desktop/update/macos/x64/0.8.3')).body).to.include({ name: 'Hangar 0.9.0' });
  });

  it('refuses an unknown architecture (404), a malformed version (400) and a platform without a release (404)', async () => {
    const arch = await request('GET', '/v1/desktop/download/macos/ppc');
    expect(arch.status).to.equal(404);
    expect(errorOf(arch).details).to.include('arm64 or x64');
    expect((await request('GET', '/v1/desktop/update/macos/ppc/1.0.0')).status).to.equal(404);
    for (const version of ['1.0', 'v1.0.0', '1.0.0-beta.1', 'latest']) {
      const bad = await request('GET', `/v1/desktop/update/macos/arm64/${version}`);
      expect(bad.status, version).to.equal(400);
      expect(errorOf(bad).details).to.include('version');
    }
    await publish({ releases: [release('1.0.0', { 'linux-x64': 'hangar-linux' })] }, { 'hangar-linux': 'cli' });
    const none = await request('GET', '/v1/desktop/download/macos/arm64');
    expect(none.status).to.equal(404);
    expect(errorOf(none).details).to.equal('no release is published for macos-arm64');
    expect((await request('GET', '/v1/desktop/update/macos/arm64/0.1.0')).status).to.equal(204);
  });

  it('opens nothing with a forged, expired, other-purpose or withdrawn link', async () => {
    const location = (await fetch(`${harness().baseUrl}/v1/desktop/download/macos/arm64`, { redirect: 'manual' })).headers.get('location')!;
    const token = decodeURIComponent(location.split('/').pop()!);
    const [keyId, body, mac] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const links = createSignedLinks(harness().config.encryptionKeys);
    const tampered = `${keyId}.${Buffer.from(JSON.stringify({ ...claims, v: '0.9.0' })).toString('base64url')}.${mac}`;
    const expired = links.sign('download', { v: claims.v, p: claims.p }, new Date(Date.now() - 1000));
    const otherPurpose = links.sign('media', { v: claims.v, p: claims.p }, new Date(Date.now() + 60_000));
    const otherKey = createSignedLinks([{ id: keyId, key: randomBytes(32) }]).sign('download', { v: claims.v, p: claims.p }, new Date(Date.now() + 60_000));
    for (const [what, t] of Object.entries({ tampered, expired, otherPurpose, otherKey, garbage: 'not-a-token' })) {
      const res = await request('GET', `/v1/desktop/files/${encodeURIComponent(t)}`);
      expect(res.status, what).to.equal(404);
      expect(errorOf(res).error, what).to.equal('Download not found');
    }
    // Withdrawing the release from the manifest withdraws its links.
    await publish({ releases: [release('0.9.0', { 'macos-arm64': 'Hangar-0.9.0-arm64.dmg' })] });
    expect((await fetch(location)).status).to.equal(404);
  });

  it('answers 503, never 500, for a bad manifest or a missing file, and 404 with no manifest', async () => {
    await publish('{"releases": [{"version": "1.0.0"}]}');
    const invalid = await request('GET', '/v1/desktop/download/macos/arm64');
    expect(invalid.status).to.equal(503);
    expect(errorOf(invalid).error).to.equal('Releases unavailable');
    expect((await request('GET', '/v1/desktop/update/macos/arm64/0.1.0')).status).to.equal(503);
    expect(harness().logs.some((l) => l.includes('the releases manifest is invalid'))).to.equal(true);

    await publish({ releases: [release('2.0.0', { 'macos-arm64': 'never-copied.dmg' })] });
    expect((await request('GET', '/v1/desktop/download/macos/arm64')).status).to.equal(503);

    await rm(join(releasesDir(), 'manifest.json'));
    expect((await request('GET', '/v1/desktop/download/macos/arm64')).status).to.equal(404);
    expect((await request('GET', '/v1/desktop/update/macos/arm64/0.1.0')).status).to.equal(204);
  });
});
