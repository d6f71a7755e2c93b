// Prints the slowest suites of a run of many (Jest itself shows a suite's time only past 5 s, so
// where CI's minutes go could not be read from its log), then one plain closing line
// ("tests: N passed, N failed, N skipped") that CI tools can read.
const SLOWEST = 15;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .map((r) => ({ path: r.testFilePath, s: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .sort((a, b) => b.s - a.s);
    if (suites.length > SLOWEST) {
      const cwd = `${process.cwd()}/`;
      const lines = suites
        .slice(0, SLOWEST)
        .map((t) => `  ${t.s.toFixed(1).padStart(6)} s  ${t.path.replace(cwd, '')}`);
      process.stdout.write(`\nslowest suites:\n${lines.join('\n')}\n`);
    }
    const passed = results.numPassedTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
