import { expect } from 'chai';
import { acknowledgement, compareTs, replyMessages, splitForSlack, threadText } from '../../../../src/integrations/slack/format';

const reply = (over: Partial<Parameters<typeof replyMessages>[0]> = {}) => ({ replicaId: 'r1', text: 'Done.', ok: true, error: null, pullRequestUrls: [], ...over });

describe('integrations/slack/format', () => {
  it('keeps a short text whole', () => {
    expect(splitForSlack('hello')).to.deep.equal(['hello']);
    expect(splitForSlack('   ')).to.deep.equal([]);
  });

  it('splits long text at paragraph, then line, then word boundaries, every part within the limit', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40).trim()}`).join('\n\n');
    const parts = splitForSlack(paragraphs, 1000);
    expect(parts.length).to.be.greaterThan(5);
    for (const p of parts) expect(p.length).to.be.at.most(1000);
    expect(parts.join('\n\n')).to.equal(paragraphs);
    const oneLine = 'word '.repeat(1000).trim();
    const words = splitForSlack(oneLine, 500);
    for (const p of words) expect(p).to.match(/^word( word)*$/).and.have.length.at.most(500);
    expect(words.join(' ')).to.equal(oneLine);
    const solid = 'x'.repeat(2500);
    expect(splitForSlack(solid, 1000).join('')).to.equal(solid);
  });

  it('closes a code fence at a cut and reopens it in the next part', () => {
    const code = ['Here:', '```', ...Array.from({ length: 200 }, (_, i) => `line ${i}`), '```', 'after'].join('\n');
    const parts = splitForSlack(code, 600);
    expect(parts.length).to.be.greaterThan(2);
    for (const p of parts) {
      expect(p.length).to.be.at.most(600);
      expect((p.split('```').length - 1) % 2, p).to.equal(0);
    }
    expect(parts[1]!.startsWith('```\n')).to.equal(true);
  });

  it("writes an answer with its pull requests, a failed turn's error, and an empty answer", () => {
    expect(replyMessages(reply({ pullRequestUrls: ['https://github.com/o/r/pull/7'] }))).to.deep.equal(['Done.\n\nPull request: <https://github.com/o/r/pull/7>']);
    expect(replyMessages(reply({ ok: false, text: '', error: 'agent exited with code 1' }))).to.deep.equal([":warning: The agent's turn failed: agent exited with code 1"]);
    expect(replyMessages(reply({ ok: false, text: 'partial', error: null }))).to.deep.equal(["partial\n\n:warning: The agent's turn failed."]);
    expect(replyMessages(reply({ text: '' }))).to.deep.equal(['The agent finished without a written answer.']);
    expect(replyMessages(reply({ text: 'y'.repeat(9000) })).length).to.equal(3);
  });

  it('names the workspace, linked when the public URL is known', () => {
    expect(acknowledgement({ id: 'r1', name: 'Fix <build>' }, 'https://hangar.example.com/')).to.equal(
      'Working on it in workspace *Fix &lt;build&gt;* (<https://hangar.example.com/v1/replica/r1|open>). Reply in this thread to talk to it.',
    );
    expect(acknowledgement({ id: 'r1', name: null }, undefined)).to.equal('Working on it in workspace *r1*. Reply in this thread to talk to it.');
  });

  it('orders Slack timestamps as numbers', () => {
    expect(compareTs('1700000000.000100', '1700000000.000099')).to.be.greaterThan(0);
    expect(compareTs('999999999.999999', '1000000000.000000')).to.be.lessThan(0);
    expect(compareTs('1700000000.000100', '1700000000.000100')).to.equal(0);
  });

  it("writes a thread for the agent: one message as is, several with their authors", () => {
    const bot = 'UBOT';
    expect(threadText([{ ts: '1.1', user: 'U1', text: `<@${bot}> fix it` }], bot, true)).to.equal('fix it');
    expect(threadText([{ ts: '1.1', user: 'U1', text: 'the build fails' }, { ts: '1.2', user: 'U2', text: `<@${bot}> can you look?` }], bot, true)).to.equal(
      'The Slack thread so far:\n\n<@U1>: the build fails\n\n<@U2>: can you look?',
    );
    expect(threadText([{ ts: '1.3', user: 'U1', text: 'a' }, { ts: '1.4', bot_id: 'B9', text: 'CI failed' }], bot, false)).to.equal('New messages in the Slack thread:\n\n<@U1>: a\n\nA bot: CI failed');
  });
});
