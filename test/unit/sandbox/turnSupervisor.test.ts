/**
 * The worker's side of the in-workspace turn supervisor: where a turn's files go, the commands
 * it runs, how it reads their answers, and how it counts the bytes of a turn's output so that a
 * worker taking the turn over starts exactly where the records stop.
 */
import { expect } from 'chai';
import { OffsetLineSplitter } from '../../../src/sandbox/workspace/lines';
import { followArgv, parseFollowEnd, parseStarted, relayedGatewayUrl, startArgv, turnDir, TURNS_DIR } from '../../../src/sandbox/workspace/turnSupervisor';

function split(chunks: Buffer[], from = 0, max?: number): Array<[string, number]> {
  const lines: Array<[string, number]> = [];
  const splitter = new OffsetLineSplitter(from, (line, end) => lines.push([line, end]), max);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('turn supervisor (worker side)', () => {
  it('counts each line\'s end in bytes, across chunks, multi-byte characters and \\r\\n', () => {
    const text = Buffer.from('{"a":"é"}\r\nsecond\n\nlast without newline', 'utf8');
    const whole = split([text]);
    expect(whole).to.deep.equal([
      ['{"a":"é"}', 12],
      ['second', 19],
      ['', 20],
      ['last without newline', text.length],
    ]);
    // Any cut of the stream gives the same lines and ends, even one through a character.
    for (let cut = 1; cut < text.length; cut++) expect(split([text.subarray(0, cut), text.subarray(cut)]), `cut at ${cut}`).to.deep.equal(whole);
    // Starting at a recorded offset counts on from it.
    expect(split([Buffer.from('x\n')], 100)).to.deep.equal([['x', 102]]);
  });

  it('delivers a line over the cap in pieces while it is still coming, each with its own end', () => {
    expect(split([Buffer.from('abcdefg'), Buffer.from('\nh\n')], 0, 3)).to.deep.equal([
      ['abc', 3],
      ['def', 6],
      ['g', 8],
      ['h', 10],
    ]);
  });

  it('keeps each turn in a directory of its own under the home, hashing ids unfit for a name', () => {
    expect(turnDir('7f3c2a9e-1b2c-4d5e-8f90-123456789abc')).to.equal(`${TURNS_DIR}/7f3c2a9e-1b2c-4d5e-8f90-123456789abc`);
    for (const id of ['../../etc', 'a/b', '', 'h-looks-hashed', 'x'.repeat(65)]) {
      expect(turnDir(id), id).to.match(new RegExp(`^${TURNS_DIR}/h-[0-9a-f]{40}$`));
    }
    expect(turnDir('a/b')).to.not.equal(turnDir('a/c'));
  });

  it('starts the agent behind `--` with its stdin and relay, and follows from an offset', () => {
    expect(startArgv({ dir: '/d', cwd: '/w', argv: ['claude', '-p', '--', '--not-a-flag'], withStdin: true, relayUpstream: 'http://api:8080' })).to.deep.equal([
      'hangar-turn', 'start', '/d', '--cwd', '/w', '--stdin', '--relay', 'http://api:8080', '--', 'claude', '-p', '--', '--not-a-flag',
    ]);
    expect(followArgv('/d', 42)).to.deep.equal(['hangar-turn', 'follow', '/d', '--from', '42']);
    expect(relayedGatewayUrl('agent_2')).to.equal('http://127.0.0.1:7431/v1/ai-gateway/agent_2');
  });

  it('reads what start and follow answer, and nothing else', () => {
    expect(parseStarted('{"sid":812,"fresh":true}')).to.deep.equal({ sid: 812, fresh: true });
    for (const line of ['', 'not json', '{"sid":0,"fresh":true}', '{"sid":"812","fresh":true}', '{"sid":812}']) expect(parseStarted(line), line).to.equal(null);
    expect(parseFollowEnd('hangar-turn: a complaint\n{"state":"exited","code":7,"signal":"killed"}\n')).to.deep.equal({ state: 'exited', code: 7, signal: 'killed' });
    expect(parseFollowEnd('{"state":"lost"}')).to.deep.equal({ state: 'lost' });
    expect(parseFollowEnd('{"state":"missing"}\n')).to.deep.equal({ state: 'missing' });
    for (const stderr of ['', 'hangar-turn follow: broken pipe', '{"state":"exited"}', '{"state":"elsewhere"}']) expect(parseFollowEnd(stderr), stderr).to.equal(null);
  });
});
