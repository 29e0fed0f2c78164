import { expect } from 'chai';
import { markerPrefix, parseControl, stepPath } from '../../../src/sandbox/runner';
import { ControlScanner, FrameDemuxer, type ScanItem, type StreamKind } from '../../../src/sandbox/stream';

const frame = (type: number, text: string) => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

function scanAll(scanner: ControlScanner, chunks: Buffer[]): { text: string; controls: unknown[] } {
  const items: ScanItem[] = chunks.flatMap((c) => scanner.push(c));
  items.push({ text: scanner.flush() });
  return {
    text: Buffer.concat(items.flatMap((i) => ('text' in i ? [i.text] : []))).toString(),
    controls: items.flatMap((i) => ('control' in i ? [i.control] : [])),
  };
}

describe('sandbox exec stream parsing', () => {
  it('demuxes frames in order, whatever the chunking', () => {
    const wire = Buffer.concat([frame(1, 'out1\n'), frame(2, 'err\n'), frame(1, 'out2\n')]);
    for (let size = 1; size <= wire.length; size++) {
      const got: Array<[StreamKind, string]> = [];
      const demuxer = new FrameDemuxer((kind, payload) => got.push([kind, payload.toString()]));
      for (let i = 0; i < wire.length; i += size) demuxer.push(wire.subarray(i, i + size));
      expect(got.map(([k, t]) => `${k}:${t}`).join(''), `chunk size ${size}`).to.equal('stdout:out1\nstderr:err\nstdout:out2\n');
    }
  });

  it('strips control lines anywhere in the output, split at any byte', () => {
    const prefix = markerPrefix('abc');
    const wire = Buffer.concat([
      Buffer.from('before'),
      prefix,
      Buffer.from('S0\n'),
      Buffer.from('mid\n'),
      prefix,
      Buffer.from('F0:7\n'),
      prefix,
      Buffer.from('E7\n'),
      Buffer.from('after'),
    ]);
    for (let size = 1; size <= wire.length; size++) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < wire.length; i += size) chunks.push(wire.subarray(i, i + size));
      const { text, controls } = scanAll(new ControlScanner(prefix), chunks);
      expect(text, `chunk size ${size}`).to.equal('beforemid\nafter');
      expect(controls).to.deep.equal([
        { kind: 'start', step: 0 },
        { kind: 'finish', step: 0, exitCode: 7 },
        { kind: 'end', exitCode: 7 },
      ]);
    }
  });

  it('passes through look-alikes with another nonce or a malformed body', () => {
    const prefix = markerPrefix('abc');
    const other = markerPrefix('xyz');
    const input = Buffer.concat([other, Buffer.from('S0\n'), prefix, Buffer.from('bogus\n'), Buffer.from('\x1e\x1e')]);
    const { text, controls } = scanAll(new ControlScanner(prefix), [input]);
    expect(controls).to.deep.equal([]);
    expect(text).to.equal(input.toString());
  });

  it('parses the three control bodies', () => {
    expect(parseControl('S12')).to.deep.equal({ kind: 'start', step: 12 });
    expect(parseControl('F1:137')).to.deep.equal({ kind: 'finish', step: 1, exitCode: 137 });
    expect(parseControl('E0')).to.deep.equal({ kind: 'end', exitCode: 0 });
    expect(parseControl('X1')).to.equal(null);
  });
});

describe('sandbox step script paths', () => {
  it('names scripts by position and a readable slug of the step name', () => {
    expect(stepPath(0, 'global start hook')).to.equal('/tmp/hangar/1-global-start-hook.sh');
    expect(stepPath(2, "Source's €/hook")).to.equal('/tmp/hangar/3-source-s-hook.sh');
    expect(stepPath(1, '!!!')).to.equal('/tmp/hangar/2-step.sh');
  });
});
