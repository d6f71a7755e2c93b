import { type NotSentName, VidopsError } from '../core/errors.js';
import type { RecordedError } from '../core/model.js';
import { type Said, type SaidKey, type SaidWords, saidJson } from '../core/said.js';
import { english, SAID_ENGLISH } from './messages/errors-en.js';

export { english };

/**
 * The core's refusals (`say.…`, src/core/said.ts: a key and its raw parameters) put into words:
 * the one place a key meets its wording, in the language of the `errors` area given.
 * @see docs/architecture.md, "Languages"
 */

/** `words` applied to one sentence (`lang.t.errors`, the reader's side of the catalog). */
export function sayWith(words: SaidWords, said: Said): string {
  const phrase = words[said.key] as (...params: readonly unknown[]) => string;
  return phrase(...said.params);
}

/** What an error says in English: its sentence when it was made from one, else its message. */
export function messageOf(error: Error): string {
  return error instanceof VidopsError && error.said !== null ? english(error.said) : error.message;
}

/** An error as a request records it, from a sentence of vidops' own (its English as `message`). */
export function recordedSaid(name: NotSentName, said: Said): RecordedError {
  return { name, message: english(said), said: saidJson(said) };
}

/**
 * A refusal as services return it: the English words (logs, the audit log, the CLI) and, when it
 * was made from one, the sentence to say in the reader's language.
 */
export interface Reasoned {
  reason: string;
  said?: Said | undefined;
}

/** `said` with its English words beside it. */
export function reasoned(said: Said): Reasoned {
  return { reason: english(said), said };
}

/** A domain error's words, as a refusal: its sentence when it was made from one. */
export function reasonOf(error: { message: string; said: Said | null }): Reasoned {
  return error.said === null ? { reason: error.message } : { reason: english(error.said), said: error.said };
}

/**
 * A stored sentence (`saidJson`) read back; null when it is not one this build knows (an older or
 * newer key, a different number of parameters): the reader then sees the English stored beside it.
 */
export function saidFromJson(value: unknown): Said | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (typeof key !== 'string' || !Array.isArray(params) || !Object.hasOwn(SAID_ENGLISH, key)) return null;
  if (SAID_ENGLISH[key as SaidKey].length !== params.length) return null;
  // The key and the count are checked; a parameter of the wrong type shows as the words throwing.
  const said = { key, params } as Said;
  try {
    english(said);
  } catch {
    return null;
  }
  return said;
}
