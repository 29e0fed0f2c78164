/**
 * The in-sandbox runner and the control lines it prints. One exec does everything (an
 * exec costs tens of milliseconds here, and so does a `putArchive`): the runner first
 * unpacks the environment's files and the step scripts from a tar the host streams on its
 * stdin, then runs the chain. It tells the host where each step starts and ends with lines
 * that carry a per-run nonce, which the host strips from the output. Step output and those
 * lines share one pipe (stderr is merged into stdout inside the sandbox), so the host sees
 * them in exactly the order they were written.
 */
import { randomBytes } from 'node:crypto';

/**
 * Where the step scripts are unpacked (private to `hangar`, outside its home). Containers
 * are single-use, so a fixed place is enough, and error messages that name the script
 * (`/tmp/hangar/2-source.sh: line 3: ...`) stay readable.
 */
export const RUN_DIR = '/tmp/hangar';

export function stepPath(index: number, name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'step';
  return `${RUN_DIR}/${index + 1}-${slug}.sh`;
}

/** Control lines start with an ASCII record separator, which ordinary output never carries. */
const RS = '\x1e';

export type ControlEvent =
  | { kind: 'start'; step: number }
  | { kind: 'finish'; step: number; exitCode: number }
  | { kind: 'end'; exitCode: number };

export function newNonce(): string {
  return randomBytes(12).toString('hex');
}

export function markerPrefix(nonce: string): Buffer {
  return Buffer.from(`${RS}hangar-${nonce}:`);
}

/** Parses the text between the prefix and the newline; null when it is not a control line. */
export function parseControl(body: string): ControlEvent | null {
  let m = /^S(\d{1,6})$/.exec(body);
  if (m) return { kind: 'start', step: Number(m[1]) };
  m = /^F(\d{1,6}):(\d{1,3})$/.exec(body);
  if (m) return { kind: 'finish', step: Number(m[1]), exitCode: Number(m[2]) };
  m = /^E(\d{1,3})$/.exec(body);
  if (m) return { kind: 'end', exitCode: Number(m[1]) };
  return null;
}

/** `scripts` are paths from `stepPath`, so they need no quoting beyond single quotes. */
export function runnerScript(nonce: string, scripts: string[]): string {
  return `exec 2>&1
mark() { printf '\\036hangar-${nonce}:%s\\n' "$1"; }
if ! tar -x -f - -C / --no-same-owner --no-overwrite-dir --warning=no-timestamp; then
  echo "[hangar] could not write the environment's files into the sandbox"
  exit 1
fi
exec </dev/null
cd "$HOME" || exit 1
steps=(${scripts.map((p) => `'${p}'`).join(' ')})
code=0
for i in "\${!steps[@]}"; do
  mark "S$i"
  bash "\${steps[$i]}"
  code=$?
  mark "F$i:$code"
  [ "$code" -eq 0 ] || break
done
mark "E$code"
# Nothing a hook started may outlive the chain: it would hold the output pipe open.
for _ in 1 2 3 4 5 6 7 8 9 10; do kill -KILL -1 2>/dev/null || break; done
exit "$code"
`;
}
