/**
 * The local Slack: one emulator for the playground (`npm start` without Slack tokens), the
 * end-to-end tests and the benchmark.
 * @see docs/architecture.md, "Emulator and playground"
 */
export { findSurfaceProblems } from './blockkit.js';
export {
  type Delivery,
  type DeliveryKind,
  type Emulator,
  type EmulatorChange,
  type EmulatorFile,
  type EmulatorOptions,
  type EphemeralMessage,
  type InjectedFailure,
  type RecordedCall,
  type ResponsePost,
  type ResponseTarget,
  type StoredMessage,
  type StoredView,
  startEmulator,
} from './emulator.js';
export { createPageGuard, type PageGuard, TOKEN_HEADER } from './page-guard.js';
export * from './payloads.js';
export {
  type ClickTarget,
  type MessageShortcutTarget,
  type Person,
  personOf,
  type RawInput,
  type ShortcutResult,
  type SubmitResult,
} from './person.js';
export { type Persona, type PlaygroundPage, type PlaygroundPageOptions, playgroundRoutes } from './ui.js';
export * from './workspace.js';
