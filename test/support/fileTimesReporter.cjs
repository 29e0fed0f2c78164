/**
 * Mocha's spec reporter, plus where the time went: each test file's wall time (from its first
 * hook or test starting to its last ending, its before/after hooks included), the ten slowest
 * printed after the summary and all of them written to .hangar/test-file-times.json, so a run
 * on CI or a laptop shows which files to make faster. Plain CommonJS: mocha loads reporters
 * before tsx is registered for the specs.
 */
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_END } = Mocha.Runner.constants;

class FileTimesReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    /** file → { ms, tests } */
    const files = new Map();
    const entry = (file) => {
      if (!files.has(file)) files.set(file, { ms: 0, tests: 0 });
      return files.get(file);
    };
    runner.on(EVENT_TEST_END, (test) => {
      if (test.file) entry(test.file).tests += 1;
    });
    // One process: a file's wall time is its top-level suites' time, hooks included.
    const open = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (!suite.file || !suite.parent || !suite.parent.root) return;
      open.set(suite, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const started = open.get(suite);
      if (started === undefined) return;
      open.delete(suite);
      entry(suite.file).ms += Date.now() - started;
    });
    this.files = files;
  }

  /**
   * In a parallel run a file's events arrive all at once when its worker is done with it, so
   * their times say nothing: the worker's root hooks wrote each file's wall time into the run's
   * directory (test/support/hooks.ts), and those are the times.
   */
  workerTimes() {
    const dir = process.env.HANGAR_TEST_RUN_DIR;
    if (!dir || !this.runner.isParallelMode?.()) return;
    let lines = [];
    try {
      lines = fs.readFileSync(path.join(dir, 'file-times.jsonl'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return;
    }
    for (const line of lines) {
      const { file, ms } = JSON.parse(line);
      const entry = this.files.get(file) ?? { ms: 0, tests: 0 };
      entry.ms = ms;
      this.files.set(file, entry);
    }
  }

  /** The files by time, slowest first; written out for later reading. */
  report() {
    this.workerTimes();
    const root = process.cwd();
    const rows = [...this.files].map(([file, t]) => ({ file: path.relative(root, file), seconds: Math.round(t.ms / 100) / 10, tests: t.tests }));
    rows.sort((a, b) => b.seconds - a.seconds);
    try {
      fs.mkdirSync(path.join(root, '.hangar'), { recursive: true });
      fs.writeFileSync(path.join(root, '.hangar', 'test-file-times.json'), JSON.stringify(rows, null, 2) + '\n');
    } catch {
      // A read-only checkout still gets the printed list.
    }
    return rows;
  }

  epilogue() {
    super.epilogue();
    const slowest = this.report().slice(0, 10);
    if (slowest.length === 0) return;
    const total = slowest.reduce((sum, r) => sum + r.seconds, 0);
    console.log(`  The ten slowest files (${Math.round(total)} s together; all in .hangar/test-file-times.json):`);
    for (const r of slowest) console.log(`    ${String(r.seconds.toFixed(1)).padStart(7)} s  ${String(r.tests).padStart(3)} tests  ${r.file}`);
    console.log();
  }
}

module.exports = FileTimesReporter;
