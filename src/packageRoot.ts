/**
 * The directory of Hangar's package.json, found upwards from this module. Files that ship beside
 * the code (the console's pages, the dev seed's `.hangar`) are found from there, which holds both
 * when running from source under tsx (`src/…`) and from the built API bundle (`dist/api.js`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let found: string | undefined;

export function packageRoot(): string {
  if (found) return found;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'hangar') return (found = dir);
    if (dirname(dir) === dir) throw new Error(`Hangar's package.json was not found above ${__dirname}`);
  }
}
