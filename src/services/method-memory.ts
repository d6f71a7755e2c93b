import type { MethodMemory } from '../client/types.js';
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
