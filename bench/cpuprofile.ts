/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time by module and by function,
 * counted in samples (a sample is taken while the thread runs, so a thread the machine
 * preempted is not charged for the wait, as wall-clock deltas would be). With a pattern, also
 * the inclusive share of the functions whose `name module:line` matches it.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx src/bin/api.ts   # load it, then stop it
 *   npx tsx bench/cpuprofile.ts /tmp/prof/CPU.*.cpuprofile [top] ['^(respond|info) ']
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const [file, topArg, pattern] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/cpuprofile.ts <file.cpuprofile> [top] [pattern]');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
const total = profile.samples.length;

const moduleOf = (url: string) => {
  if (!url) return '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  return /\/(src|bench|test|activities|workflows)\/.*/.exec(url)?.[0] ?? url;
};
const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${moduleOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
const print = (title: string, map: Map<string, number>) => {
  console.log(`== ${title}`);
  for (const [key, n] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * n) / total).toFixed(1).padStart(5)} %  ${key}`);
};

const functions = new Map<string, number>();
const modules = new Map<string, number>();
for (const [id, n] of self) {
  const node = byId.get(id)!;
  add(functions, label(node), n);
  add(modules, moduleOf(node.callFrame.url), n);
}
console.log(`${total} samples`);
print('self time by module', modules);
print('self time by function', functions);

if (pattern) {
  const re = new RegExp(pattern);
  const inclusive = new Map<number, number>();
  const sumOf = (id: number): number => {
    const held = inclusive.get(id);
    if (held !== undefined) return held;
    const sum = (self.get(id) ?? 0) + (byId.get(id)!.children ?? []).reduce((s, c) => s + sumOf(c), 0);
    inclusive.set(id, sum);
    return sum;
  };
  const matched = new Map<string, number>();
  // A matching function inside another call of itself is counted once, at the outer call.
  const walk = (id: number, inside: ReadonlySet<string>) => {
    const node = byId.get(id)!;
    const key = label(node);
    const hit = re.test(key);
    if (hit && !inside.has(key)) add(matched, key, sumOf(id));
    const next = hit ? new Set([...inside, key]) : inside;
    for (const child of node.children ?? []) walk(child, next);
  };
  walk(profile.nodes[0]!.id, new Set());
  print(`inclusive time of ${pattern}`, matched);
}
