/**
 * The operations services: one core for Slack and the CLI.
 * @see docs/architecture.md, "Architecture"
 */
export { recordError } from './execute.js';
export {
  RETRY_METHOD_SETTING,
  serviceIdentity,
  storeMethodMemory,
  storeSupportMemory,
  supportSetting,
} from './method-memory.js';
export { createOperations } from './operations.js';
export type * from './types.js';
