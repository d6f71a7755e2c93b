import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the suite may use, or undefined (the suite is then skipped with a note). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

let noted = false;

/** Prints once per test file why the PostgreSQL tests did not run. */
export function noteSkipped(what: string): void {
  if (noted) return;
  noted = true;
  console.info(
    `${what}: skipped: set TEST_DATABASE_URL=postgres://user:password@127.0.0.1:5432/<db> to run them (.ci/run does).`,
  );
}

/**
 * Hands out fresh schemas on the test database, so parallel runs (and other helpers' suites) on
 * one database never see each other's tables, and drops them all at the end.
 */
export function schemaPool(base: string, tag: string) {
  const created: string[] = [];
  const run = `${tag}_${process.pid}_${randomBytes(3).toString('hex')}`;
  return {
    /** A URL whose store lives in a new, not yet created schema. */
    url(): string {
      const schema = `vidops_t_${run}_${created.length + 1}`;
      created.push(schema);
      const u = new URL(base);
      u.searchParams.set('schema', schema);
      return u.toString();
    },
    async dropAll(): Promise<void> {
      if (created.length === 0) return;
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        for (const schema of created) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
