import { expect } from 'chai';
import { OutputCollector, truncationMarker, utf8Prefix } from '../../../src/sandbox/output';

describe('sandbox output collector', () => {
  it('keeps output in arrival order across streams', () => {
    const seen: string[] = [];
    const out = new OutputCollector(1024, (chunk) => seen.push(chunk));
    out.write('stdout', Buffer.from('one\n'));
    out.write('stderr', Buffer.from('two\n'));
    out.write('stdout', Buffer.from('three\n'));
    expect(out.finish()).to.equal('one\ntwo\nthree\n');
    expect(seen.join('')).to.equal('one\ntwo\nthree\n');
  });

  it('puts header lines on a line of their own', () => {
    const out = new OutputCollector(1024);
    out.write('stdout', Buffer.from('no newline'));
    out.line('==> source hook');
    out.write('stdout', Buffer.from('x\n'));
    expect(out.finish()).to.equal('no newline\n==> source hook\nx\n');
  });

  it('caps the output in bytes and appends a visible marker line', () => {
    const seen: string[] = [];
    const out = new OutputCollector(10, (chunk) => seen.push(chunk));
    out.write('stdout', Buffer.from('0123456'));
    out.write('stdout', Buffer.from('789abcdef'));
    out.write('stdout', Buffer.from('more that is dropped\n'));
    const text = out.finish();
    expect(text).to.equal(`0123456789\n${truncationMarker(10)}\n`);
    expect(out.truncated).to.equal(true);
    expect(seen.join('')).to.equal(text);
  });

  it('never splits a multi-byte character at the cap', () => {
    const out = new OutputCollector(6, () => {});
    out.write('stdout', Buffer.from('ab€€'));
    expect(out.finish()).to.equal(`ab€\n${truncationMarker(6)}\n`);
  });

  it('joins characters split across chunks of one stream', () => {
    const euro = Buffer.from('€');
    const out = new OutputCollector(100);
    out.write('stdout', euro.subarray(0, 1));
    out.write('stderr', Buffer.from('!'));
    out.write('stdout', euro.subarray(1));
    expect(out.finish()).to.equal('!€');
  });

  it('shows notices even past the cap', () => {
    const out = new OutputCollector(3);
    out.write('stdout', Buffer.from('abcdef'));
    out.notice('[hangar] timed out');
    expect(out.finish()).to.equal(`abc\n${truncationMarker(3)}\n[hangar] timed out\n`);
  });

  it('utf8Prefix cuts at character boundaries', () => {
    expect(utf8Prefix('héllo', 2)).to.equal('h');
    expect(utf8Prefix('héllo', 3)).to.equal('hé');
    expect(utf8Prefix('abc', 10)).to.equal('abc');
    expect(utf8Prefix('abc', 0)).to.equal('');
  });
});
