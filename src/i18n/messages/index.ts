import { common } from './common.js';
import { errors } from './errors.js';
import { everyday } from './everyday.js';

/**
 * Every area of the message catalog. Add an area here once; `Messages` and both languages follow.
 * @see docs/architecture.md, "Languages"
 */
export const AREAS = {
  common,
  errors,
  everyday,
} as const;
