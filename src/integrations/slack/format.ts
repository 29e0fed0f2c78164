/**
 * What Hangar writes in a Slack thread and what it reads out of one: the agent's answer split
 * into messages Slack shows whole, the acknowledgement naming the workspace, and a thread's
 * messages as one text for the agent.
 */
import type { ThreadReply } from '../threads/types';
import { plainText } from './events';
import type { SlackApiMessage } from './webApi';

/**
 * Slack truncates a message's text past 40,000 characters but asks clients to keep messages
 * near 4,000; a little below that leaves room for a reopened code fence.
 */
export const SLACK_MESSAGE_LIMIT = 3900;

/**
 * Splits text into messages of at most `limit` characters: at a blank line if one is near the
 * end of the window, else at a line break, else a space, else hard. A code fence left open at a
 * cut is closed there and reopened in the next message, so each message renders on its own.
 */
export function splitForSlack(text: string, limit = SLACK_MESSAGE_LIMIT): string[] {
  const FENCE = '```';
  const budget = limit - FENCE.length - 1;
  const parts: string[] = [];
  let rest = text.trim();
  let reopen = false;
  while (rest.length > 0) {
    const head: string = reopen ? `${FENCE}\n` : '';
    if (head.length + rest.length <= limit) {
      parts.push(head + rest);
      break;
    }
    const window = rest.slice(0, budget - head.length);
    const floor = Math.floor(window.length / 2);
    let cut = window.lastIndexOf('\n\n');
    if (cut < floor) cut = window.lastIndexOf('\n');
    if (cut < floor) cut = window.lastIndexOf(' ');
    if (cut < floor) cut = window.length;
    let piece: string = head + rest.slice(0, cut).trimEnd();
    rest = rest.slice(cut).trimStart();
    const open: boolean = (piece.split(FENCE).length - 1) % 2 === 1;
    if (open) piece += `\n${FENCE}`;
    reopen = open;
    parts.push(piece);
  }
  return parts.length > 0 ? parts : [];
}

/** The messages one agent turn becomes in the thread. */
export function replyMessages(reply: ThreadReply, limit = SLACK_MESSAGE_LIMIT): string[] {
  const body = reply.text.trim();
  const links = reply.pullRequestUrls.length > 0 ? reply.pullRequestUrls.map((url) => `Pull request: <${url}>`).join('\n') : '';
  const lines: string[] = [];
  if (body) lines.push(body);
  if (!reply.ok) lines.push(`:warning: The agent's turn failed${reply.error ? `: ${reply.error}` : '.'}`);
  else if (!body && !links) lines.push('The agent finished without a written answer.');
  if (links) lines.push(links);
  return splitForSlack(lines.join('\n\n'), limit);
}

/** Posted once, when a thread gets its workspace. */
export function acknowledgement(workspace: { id: string; name: string | null }, publicBaseUrl: string | undefined): string {
  const name = workspace.name?.trim() || workspace.id;
  const link = publicBaseUrl ? ` (<${publicBaseUrl.replace(/\/+$/, '')}/v1/replica/${workspace.id}|open>)` : '';
  return `Working on it in workspace *${escapeMrkdwn(name)}*${link}. Reply in this thread to talk to it.`;
}

/** Slack's three control characters in text Hangar writes. */
export const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack timestamps compared as numbers (`seconds.micros`, the micros zero-padded by Slack). */
export function compareTs(a: string, b: string): number {
  const [as, af = ''] = a.split('.');
  const [bs, bf = ''] = b.split('.');
  const seconds = Number(as) - Number(bs);
  if (seconds !== 0) return seconds;
  return Number(af.padEnd(6, '0').slice(0, 6)) - Number(bf.padEnd(6, '0').slice(0, 6));
}

/**
 * A thread's messages as the agent reads them. One message is passed as its text; several are
 * each prefixed with their author (`<@U123>`), under a line saying whether this is the whole
 * thread so far or only what was written since the workspace last heard from it.
 */
export function threadText(messages: SlackApiMessage[], botUserId: string | null, firstTime: boolean): string {
  const written = messages.map((m) => ({ who: m.user ? `<@${m.user}>` : 'A bot', text: plainText(m.text ?? '', botUserId) })).filter((m) => m.text);
  if (written.length === 0) return '';
  if (written.length === 1) return written[0]!.text;
  const heading = firstTime ? 'The Slack thread so far:' : 'New messages in the Slack thread:';
  return [heading, ...written.map((m) => `${m.who}: ${m.text}`)].join('\n\n');
}
