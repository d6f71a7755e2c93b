import { approvals } from './approvals.js';
import { breakGlass } from './breakGlass.js';
import { changes } from './changes.js';
import { cli } from './cli.js';
import { common } from './common.js';
import { errors } from './errors.js';
import { everyday } from './everyday.js';
import { language } from './language.js';
import { requests } from './requests.js';
import { shortcuts } from './shortcuts.js';

/**
 * Every area of the message catalog. Add an area here once; `Messages` and both languages follow.
 * @see docs/architecture.md, "Languages"
 */
export const AREAS = {
  approvals,
  breakGlass,
  changes,
  cli,
  common,
  errors,
  everyday,
  language,
  requests,
  shortcuts,
} as const;
