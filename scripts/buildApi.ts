/**
 * `npm run build`: the production API as one file, `dist/api.js` (with its source map). Hangar's
 * own code is bundled and compiled ahead of time; dependencies stay in node_modules. A process
 * started from it skips tsx's compiling at run time, which costs about 45 MB of every API
 * process's memory (docs/decisions/platform.md, "A built API for production"). The worker keeps running
 * from source: Temporal bundles the workflow code from its source files when it starts.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(__dirname, '..');

export async function buildApi(outfile = join(ROOT, 'dist', 'api.js')): Promise<string> {
  await build({
    entryPoints: [join(ROOT, 'src', 'bin', 'api.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  return outfile;
}

if (require.main === module) {
  buildApi().then(
    (file) => console.log(`build: wrote ${file}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
