/**
 * The recent output of one terminal, for replay when a client (re)connects. Positions are
 * offsets into the session's whole output (in UTF-16 code units), so a client that holds
 * live chunks and a replay can join them without a gap or a repeat.
 */

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

export class OutputBuffer {
  private chunks: string[] = [];
  private size = 0;
  /** Offset of the first character still held. */
  private start = 0;

  constructor(private readonly capacity: number) {}

  get end(): number {
    return this.start + this.size;
  }

  append(text: string): void {
    if (!text) return;
    this.chunks.push(text);
    this.size += text.length;
    let excess = this.size - this.capacity;
    while (excess > 0) {
      const first = this.chunks[0]!;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.start += first.length;
        excess -= first.length;
        continue;
      }
      // Never start the buffer with half of a surrogate pair.
      const cut = isLowSurrogate(first.charCodeAt(excess)) ? excess + 1 : excess;
      this.chunks[0] = first.slice(cut);
      this.size -= cut;
      this.start += cut;
      excess = 0;
    }
  }

  /** What is held from `from` on (clamped to what is still held). */
  snapshot(from = 0): { data: string; start: number; end: number } {
    const all = this.chunks.length > 1 ? (this.chunks = [this.chunks.join('')])[0]! : (this.chunks[0] ?? '');
    const begin = Math.min(Math.max(from, this.start), this.end);
    let data = all.slice(begin - this.start);
    if (data && isLowSurrogate(data.charCodeAt(0))) data = data.slice(1);
    return { data, start: this.end - data.length, end: this.end };
  }
}
