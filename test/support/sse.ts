/** Reads a server-sent-events response to its end, as `{event, data}` records. */
import { harness } from './harness';

export interface SseEvent {
  event: string;
  data: any;
}

export async function postSse(path: string, key: string, body: unknown): Promise<{ status: number; contentType: string | null; events: SseEvent[]; json?: any }> {
  const res = await fetch(harness().baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const contentType = res.headers.get('content-type');
  const text = await res.text();
  if (!contentType?.startsWith('text/event-stream')) return { status: res.status, contentType, events: [], json: JSON.parse(text) };
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l && !l.startsWith(':'));
    if (lines.length === 0) continue;
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
    const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
    events.push({ event, data: JSON.parse(data) });
  }
  return { status: res.status, contentType, events };
}

/** Yields each `data:` payload of a server-sent-events response, parsed, as it arrives. */
export async function* sseData<T = any>(res: Response): AsyncGenerator<T> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop()!;
      for (const block of blocks) {
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data) yield JSON.parse(data.slice(6)) as T;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
