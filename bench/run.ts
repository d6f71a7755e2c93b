/**
 * `npm run bench [name…]`: runs the named benchmarks (all when none is named). Each prints its
 * figures next to a baseline measured in the same run, as ratios.
 */
const BENCHMARKS: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  client: () => import('./client.js'),
  store: () => import('./store.js'),
  services: () => import('./services.js'),
  slack: () => import('./slack.js'),
  audit: () => import('./audit.js'),
  wal: () => import('./wal-pages.js'),
  age: () => import('./age.js'),
  bulk: () => import('./bulk.js'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(BENCHMARKS);
for (const name of names) {
  const load = BENCHMARKS[name];
  if (!load) {
    console.error(`Unknown benchmark "${name}". Known: ${Object.keys(BENCHMARKS).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n== ${name}`);
  await (await load()).run();
}
process.exit(0);
