/**
 * `npm test`: every test file, run in parallel by `HANGAR_TEST_JOBS` worker processes (default
 * 3; a file's tests run in order within one worker). On a 2-core machine a fourth worker was no
 * faster (the CPU is the bound) and only added load to the tests with deadlines. Each worker starts its own Hangar (its own
 * database, ports, task queue, sandbox owner and Redis prefix) and all of them share one
 * Temporal dev server (test/support/hooks.ts, test/support/testRun.ts). `HANGAR_TEST_JOBS=1`
 * runs the files one after another in a single process.
 */
const jobs = Number(process.env.HANGAR_TEST_JOBS || 3);
if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`HANGAR_TEST_JOBS must be a whole number of at least 1, not ${process.env.HANGAR_TEST_JOBS}`);

/** Files or folders named on the command line run alone (mocha would add them to `spec`). */
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /^(\.\/)?test\//.test(arg));

module.exports = {
  require: ['tsx/cjs', 'test/support/hooks.ts'],
  extension: ['ts'],
  ...(named ? {} : { spec: ['test/unit/**/*.test.ts', 'test/workflows/*.test.ts', 'test/integration/**/*.test.ts'] }),
  timeout: 120000,
  exit: true,
  parallel: jobs > 1,
  jobs,
  reporter: './test/support/fileTimesReporter.cjs',
};
