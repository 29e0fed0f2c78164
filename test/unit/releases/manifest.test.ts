import { expect } from 'chai';
import { newestRelease, parseManifest, updateFor, type ReleaseManifest } from '../../../src/releases/manifest';
import { parseRange } from '../../../src/http/routes/downloads';

const release = (version: string, files: Record<string, string> = { 'macos-arm64': `Hangar-${version}.dmg` }) => ({
  version,
  notes: `notes of ${version}`,
  pub_date: '2026-01-02T03:04:05Z',
  files,
});
const manifest = (...releases: ReturnType<typeof release>[]): ReleaseManifest => ({ releases });

describe('releases manifest', () => {
  it('compares versions as semantic versions, not strings', () => {
    const m = manifest(release('0.9.0'), release('0.10.0'), release('0.2.11'));
    expect(newestRelease(m, 'macos-arm64')?.version).to.equal('0.10.0');
    expect(updateFor(m, 'macos-arm64', '0.9.0')?.version).to.equal('0.10.0');
    expect(updateFor(m, 'macos-arm64', '0.10.0')).to.equal(null);
    // A client ahead of the manifest (a local build) is current.
    expect(updateFor(m, 'macos-arm64', '1.0.0')).to.equal(null);
  });

  it('never offers a prerelease, so one is not newer than its release', () => {
    const m = manifest(release('1.2.0'), release('1.3.0-beta.1'));
    expect(newestRelease(m, 'macos-arm64')?.version).to.equal('1.2.0');
    expect(updateFor(m, 'macos-arm64', '1.2.0')).to.equal(null);
    expect(updateFor(m, 'macos-arm64', '1.1.9')?.version).to.equal('1.2.0');
  });

  it('picks per platform: a release without a file for it does not count', () => {
    const m = manifest(release('1.0.0', { 'macos-arm64': 'a.dmg', 'macos-x64': 'x.dmg' }), release('1.1.0', { 'macos-arm64': 'b.dmg', 'linux-x64': 'hangar' }));
    expect(newestRelease(m, 'macos-x64')?.version).to.equal('1.0.0');
    expect(newestRelease(m, 'linux-x64')?.version).to.equal('1.1.0');
    expect(newestRelease(m, 'linux-arm64')).to.equal(null);
  });

  it('accepts a valid manifest and names what is wrong with a bad one', () => {
    expect(parseManifest(JSON.stringify(manifest(release('1.0.0')))).releases).to.have.length(1);
    const bad = (value: unknown) => () => parseManifest(typeof value === 'string' ? value : JSON.stringify(value));
    expect(bad('{nope')).to.throw(/not JSON/);
    expect(bad({})).to.throw(/releases/);
    expect(bad(manifest(release('1.0')))).to.throw(/semantic version/);
    expect(bad(manifest(release('v1.0.0')))).to.throw(/semantic version/);
    expect(bad(manifest(release('1.0.0'), release('1.0.0')))).to.throw(/twice/);
    expect(bad(manifest(release('1.0.0', { 'macos-arm64': '../etc/passwd' })))).to.throw(/pattern/);
    expect(bad(manifest(release('1.0.0', { 'macos-arm64': '.hidden' })))).to.throw(/pattern/);
    expect(bad(manifest(release('1.0.0', { 'Mac OS': 'a.dmg' })))).to.throw(/files must match pattern/);
    expect(bad({ releases: [{ ...release('1.0.0'), pub_date: 'yesterday' }] })).to.throw(/date-time/);
  });
});

describe('download byte ranges', () => {
  it('serves single ranges and refuses those outside the file', () => {
    expect(parseRange(undefined, 100)).to.equal(null);
    expect(parseRange('bytes=0-9', 100)).to.deep.equal({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).to.deep.equal({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).to.equal('unsatisfiable');
    expect(parseRange('bytes=9-3', 100)).to.equal('unsatisfiable');
    // Several ranges or another unit: the whole file.
    expect(parseRange('bytes=0-1,5-6', 100)).to.equal(null);
    expect(parseRange('items=0-1', 100)).to.equal(null);
  });
});
