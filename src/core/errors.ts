import type { RecordedError } from './model.js';
import type { Said } from './said.js';

/**
 * Domain errors. Services branch on `instanceof`; one place (views/errors) turns them into what
 * the user reads. Messages are written for the person who caused them. An error made from a
 * sentence (`new InputError(say.prepNoSetting())`) keeps it as `said`, worded by the edges in the
 * reader's language (src/i18n/said.ts `messageOf`); its `message` is only the sentence's key.
 * @see docs/architecture.md, "Languages"
 */
export class VidopsError extends Error {
  /** The sentence, when the error was made from one; views word it in the reader's language. */
  readonly said: Said | null;

  constructor(message: string | Said, options?: { cause?: unknown }) {
    super(typeof message === 'string' ? message : message.key, options);
    this.name = new.target.name;
    this.said = typeof message === 'string' ? null : message;
  }
}

/** Input that cannot be accepted; `issues` lists each problem in plain words. */
export class InputError extends VidopsError {
  constructor(
    message: string | Said,
    readonly issues: readonly string[] = [],
  ) {
    super(message);
  }
}

/** The policy refuses the action for this actor. */
export class PolicyDeniedError extends VidopsError {}

/** The request is not in a state that allows the action (already decided, expired…). */
export class StateConflictError extends VidopsError {}

/** Configuration that cannot work; raised at start. */
export class ConfigError extends VidopsError {
  constructor(readonly problems: readonly string[]) {
    super(`Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Failures after which vidops sent nothing: readers are told "not sent", not "failed". */
const NOT_SENT = ['NotSent', 'Busy', 'Superseded', 'Unsealed'] as const;
export type NotSentName = (typeof NOT_SENT)[number];

/** Whether the recorded failure is one where nothing was sent (src/i18n/said.ts `recordedSaid`). */
export function wasNotSent(error: RecordedError | null | undefined): boolean {
  return error != null && (NOT_SENT as readonly string[]).includes(error.name);
}
