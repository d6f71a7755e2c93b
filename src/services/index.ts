/**
 * The operations services: one core for Slack and the CLI.
 * @see docs/architecture.md, "Architecture"
 */
export { createDrafts, DRAFT_TTL_MS, type Drafts, type TakenDraft } from './drafts.js';
export { recordError } from './execute.js';
export {
  RETRY_METHOD_SETTING,
  serviceIdentity,
  storeMethodMemory,
  storeSupportMemory,
  supportSetting,
} from './method-memory.js';
export { createOperations } from './operations.js';
export { type CurrentRecord, createReads, type HomeRecords, type Reads } from './reads.js';
export type * from './types.js';
