// Loaded into vidops by the aging benchmark (`node --import`): counts the statements the store
// runs (SQLite) or sends (PostgreSQL), and on SIGUSR2 writes the count so far to the file
// VIDOPS_BENCH_QUERIES names. Plain JavaScript: dist/main.js runs without a TypeScript loader.
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let count = 0;
const Database = require('better-sqlite3');
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql) {
  const statement = prepare.call(this, sql);
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const method = statement[name];
    statement[name] = function (...args) {
      count += 1;
      return method.apply(this, args);
    };
  }
  return statement;
};
const pg = require('pg');
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  count += 1;
  return query.apply(this, args);
};
process.on('SIGUSR2', () => {
  // Whole or not at all: the benchmark reads the file as soon as it appears.
  const file = process.env.VIDOPS_BENCH_QUERIES;
  if (file === undefined) return;
  writeFileSync(`${file}.part`, String(count));
  renameSync(`${file}.part`, file);
});
