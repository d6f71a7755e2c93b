import type { JsonObject } from '../core/json.js';
import { NotFoundError, unprovenExtra } from './errors.js';
import type { RequestSpec, ResponseBody, RetryPolicy, Transport } from './http.js';
import { idOf, isObject, listOf, text, unexpectedAnswer, unwrap } from './parse.js';
import type { CallSite } from './schemas.js';
import type { ExtraRoute, Page, SupportMemory } from './types.js';

/**
 * The read-only extras add information and never veto an operation. Until an extra has answered
 * 200 with a readable answer, any 404 of it (whatever its body) and any 405 mean "not supported";
 * once it has, remembered in a SupportMemory, a 404 means "no such record", except when its body
 * is a framework's own "route not found" (then the route is gone, not the record).
 * @see docs/architecture.md, "Client of the video protection API"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

/** A SupportMemory that lives as long as the client (tests, and when no store is at hand). */
export function inProcessSupportMemory(learned: Iterable<ExtraRoute> = []): SupportMemory {
  const routes = new Set<ExtraRoute>(learned);
  return {
    async isSupported(route) {
      return routes.has(route);
    },
    async markSupported(route) {
      routes.add(route);
    },
  };
}

/** Where an extra goes; its operation is the route's name. */
export type ExtraSite = CallSite & { operation: ExtraRoute };

/** One call of an extra: where it goes and how to read it. */
export interface ExtraCall<T> {
  site: ExtraSite;
  query?: RequestSpec['query'];
  retry: RequestSpec['retry'];
  /** Reads the answer; throws (e.g. `unexpectedAnswer`) when it is not what was asked for. */
  read(body: ResponseBody): T;
}

/**
 * Sends one extra, learns from a readable 200 that the route exists, and judges a 404 by what
 * has been learned.
 */
export async function readExtra<T>(
  transport: Transport,
  memory: SupportMemory,
  call: ExtraCall<T>,
): Promise<T> {
  let body: ResponseBody;
  try {
    body = await transport.request({
      ...call.site,
      ...(call.query === undefined ? {} : { query: call.query }),
      retry: call.retry,
      optional: true,
    });
  } catch (error) {
    // A route-shaped 404 or a 405 is NotSupportedError already; any other 404 is judged here.
    if (error instanceof NotFoundError && !(await learned(memory, call.site.operation))) {
      throw unprovenExtra(error);
    }
    throw error;
  }
  const value = call.read(body);
  try {
    await memory.markSupported(call.site.operation);
  } catch {
    // A memory that cannot be written only means the route is learned again on a later call.
  }
  return value;
}

/** What a resource's extras are sent with. */
export interface Extras {
  transport: Transport;
  memory: SupportMemory;
  retry: RetryPolicy;
}

/** A list extra (`…/all`, the viewer look-up): each object in the list read with `parse`. */
export function readList<T>(
  extras: Extras,
  site: ExtraSite,
  query: RequestSpec['query'],
  wanted: string,
  parse: (record: JsonObject) => T,
): Promise<Page<T>> {
  return readExtra(extras.transport, extras.memory, {
    site,
    query,
    retry: extras.retry,
    read: (body) => {
      const list = listOf(body);
      if (list === null) throw unexpectedAnswer(site, body, wanted);
      return { items: list.items.filter(isObject).map((item) => parse(item)), total: list.total };
    },
  });
}

/**
 * An info extra: the record whose ID is `id`, asked for as `?{idKey}={id}`; the ID stands in
 * when the answer carries none.
 */
export function readInfo<T>(
  extras: Extras,
  site: ExtraSite,
  idKey: string,
  id: string,
  wanted: string,
  parse: (record: JsonObject, fallbackId: string) => T,
): Promise<T> {
  return readExtra(extras.transport, extras.memory, {
    site,
    query: { [idKey]: id },
    retry: extras.retry,
    read: (body) => parse(recordAnswer(site, body, wanted, idKey), id),
  });
}

async function learned(memory: SupportMemory, route: ExtraRoute): Promise<boolean> {
  try {
    return await memory.isSupported(route);
  } catch {
    // Not knowing is "not learned": a 404 then never refuses an operation.
    return false;
  }
}

/**
 * The record of an info answer, when it looks like one (an object with an ID or a title, bare or
 * in a `data` envelope); anything else is an unexpected answer, which teaches nothing.
 */
export function recordAnswer(site: CallSite, body: ResponseBody, wanted: string, idKey: string): JsonObject {
  const record = unwrap(body);
  if (isObject(record) && (idOf(record, idKey) !== null || text(record, 'title', 'name') !== null)) {
    return record;
  }
  throw unexpectedAnswer(site, body, wanted);
}
