import { cli } from './cli.js';
import { common } from './common.js';
import { language } from './language.js';

/**
 * Every area of the message catalog. Add an area here once; `Messages` and both languages follow.
 * @see docs/architecture.md, "Languages"
 */
export const AREAS = {
  cli,
  common,
  language,
} as const;
