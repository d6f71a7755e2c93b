import { approvals } from './approvals.js';
import { audit } from './audit.js';
import { batch } from './batch.js';
import { breakGlass } from './breakGlass.js';
import { changes } from './changes.js';
import { cli } from './cli.js';
import { common } from './common.js';
import { errors } from './errors.js';
import { everyday } from './everyday.js';
import { home } from './home.js';
import { language } from './language.js';
import { operator } from './operator.js';
import { player } from './player.js';
import { requests } from './requests.js';
import { resolve } from './resolve.js';
import { shortcuts } from './shortcuts.js';
import { timeBox } from './timeBox.js';
import { viewers } from './viewers.js';

/**
 * Every area of the message catalog. Add an area here once; `Messages` and both languages follow.
 * @see docs/architecture.md, "Languages"
 */
export const AREAS = {
  approvals,
  audit,
  batch,
  breakGlass,
  changes,
  cli,
  common,
  errors,
  everyday,
  home,
  language,
  operator,
  player,
  requests,
  resolve,
  shortcuts,
  timeBox,
  viewers,
} as const;
