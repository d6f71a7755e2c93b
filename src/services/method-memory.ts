import type { ExtraRoute, MethodMemory, SupportMemory } from '../client/types.js';
import type { Store } from '../store/store.js';

/** The store setting under which the learned method of op 10 is kept. */
export const RETRY_METHOD_SETTING = 'client.retryConversionMethod';

/**
 * The learned method of op 10 (retry conversion), kept in the store so the bot's replicas and the
 * CLI learn it once between them.
 * @see docs/architecture.md, "Client of the video protection API"
 */
export function storeMethodMemory(store: Store): MethodMemory {
  return {
    async get() {
      const value = await store.getSetting(RETRY_METHOD_SETTING);
      return value === 'POST' || value === 'PATCH' ? value : null;
    },
    async set(method) {
      await store.setSetting(RETRY_METHOD_SETTING, method);
    },
  };
}

/** The store setting that says an extra has answered 200: `client.extraSupported.folder.info`… */
export function supportSetting(route: ExtraRoute): string {
  return `client.extraSupported.${route}`;
}

/**
 * Which service a learned extra belongs to: the base URL without credentials, query or trailing
 * slash. Pointing vidops at another service (the sandbox, then the real one) starts from nothing.
 */
export function serviceIdentity(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return baseUrl.replace(/\/+$/, '');
  }
}

/**
 * Which extras have answered 200, kept in the store (one setting per route, holding the service
 * it was learned from) so the bot's replicas and the CLI share what any of them learned. Learning
 * only ever adds, so a route found supported is cached in the process.
 * @see docs/architecture.md, "Client of the video protection API"
 */
export function storeSupportMemory(store: Store, baseUrl: string): SupportMemory {
  const service = serviceIdentity(baseUrl);
  const known = new Set<ExtraRoute>();
  return {
    async isSupported(route) {
      if (known.has(route)) return true;
      if ((await store.getSetting(supportSetting(route))) !== service) return false;
      known.add(route);
      return true;
    },
    async markSupported(route) {
      if (known.has(route)) return;
      await store.setSetting(supportSetting(route), service);
      known.add(route);
    },
  };
}
