/**
 * Domain errors. Services branch on `instanceof`; one place (views/errors) turns them into what
 * the user reads. Messages are written for the person who caused them.
 */
export class VidopsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Input that cannot be accepted; `issues` lists each problem in plain words. */
export class InputError extends VidopsError {
  constructor(
    message: string,
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
