import { ENDPOINTS, type EndpointName } from '../operations/specs.js';
import { DOCUMENTED_ENDPOINTS } from '../sandbox/server.js';
import { NO_RETRY, RAPID_RETRY, retryFor } from './http.js';
import { siteOf } from './schemas.js';

/**
 * vidops' endpoint table (declared by each operation's module) against the sandbox's own
 * statement of the documented endpoints, written from the spec and not from that table: a
 * mistake in either shows here, and the end-to-end tests read the sandbox's.
 */

const table = Object.entries(ENDPOINTS) as [EndpointName, (typeof ENDPOINTS)[EndpointName]][];
const documented = table.filter(([, e]) => e.specOp !== null);
/** `{fileId}` in vidops' table is `:fileId` in the sandbox's routes. */
const routeOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

describe('the endpoint table', () => {
  test.each(documented)('%s is sent where the spec says, by a method it allows', (_name, endpoint) => {
    const methods = DOCUMENTED_ENDPOINTS[routeOf(endpoint.path)];
    expect(methods).toBeDefined();
    for (const method of [endpoint.method, ...(endpoint.alsoMethods ?? [])])
      expect(methods).toContain(method);
  });

  test('every documented method and path is an operation of the table, once', () => {
    const ours = documented.flatMap(([, e]) =>
      [e.method, ...(e.alsoMethods ?? [])].map((m) => `${m} ${routeOf(e.path)}`),
    );
    const theirs = Object.entries(DOCUMENTED_ENDPOINTS).flatMap(([path, methods]) =>
      methods.map((m) => `${m} ${path}`),
    );
    expect([...ours].sort()).toEqual([...theirs].sort());
    expect(new Set(ours).size).toBe(ours.length);
  });

  test('the documented operations are numbered as the spec numbers them, each once', () => {
    const numbers = documented.map(([, e]) => e.specOp ?? 0).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  test('a read or a change that may be resumed is retried; a delete only before sending; a create never', () => {
    expect(retryFor(siteOf('whitelist.get').repeat, RAPID_RETRY)).toBe(RAPID_RETRY);
    expect(retryFor(siteOf('protect.set').repeat, RAPID_RETRY)).toBe(RAPID_RETRY);
    expect(retryFor(siteOf('folder.delete').repeat, RAPID_RETRY).retryOn).toEqual(['not-sent', 'rate-limit']);
    expect(retryFor(siteOf('folder.create').repeat, RAPID_RETRY)).toBe(NO_RETRY);
    expect(retryFor(siteOf('file.retry').repeat, RAPID_RETRY)).toBe(NO_RETRY);
  });

  test('an operation name with a typo does not compile', () => {
    // @ts-expect-error: 'viewer.unblok' is no endpoint of the table.
    expect(() => siteOf('viewer.unblok')).toThrow();
  });
});
