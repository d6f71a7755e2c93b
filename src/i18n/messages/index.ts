import { common } from './common.js';
import { shortcuts } from './shortcuts.js';

/**
 * Every area of the message catalog. Add an area here once; `Messages` and both languages follow.
 * @see docs/architecture.md, "Languages"
 */
export const AREAS = {
  common,
  shortcuts,
} as const;
