import type { SlackRoutes } from '../slack/routes.js';
import { registerChangeButtons } from './changes/actions.js';
import { registerBreakGlass } from './changes/break-glass.js';
import { registerChangeSubmissions } from './changes/submissions.js';
import { registerTimeBox } from './changes/time-box.js';
import type { AppContext } from './context.js';

export { createCoverFetcher, createSlackNotifier } from './changes/notifier.js';
/**
 * The change and approval commands: whitelist add/remove, protect, folder/file/playlist edits
 * and deletes (with typed confirmation), `requests`, `audit`, the approval message and its
 * buttons, the reject modal, and the App Home tab.
 * @see docs/architecture.md, "Slash command grammar", "Approvals" and "Audit log"
 */
export { changeHandlers, typedHandlers } from './changes/slash.js';

/** Registers the buttons, modal submissions and `app_home_opened` of the change flows. */
export function registerChangeActions(routes: SlackRoutes, ctx: AppContext): void {
  registerChangeButtons(routes, ctx);
  registerChangeSubmissions(routes, ctx);
  registerBreakGlass(routes, ctx);
  registerTimeBox(routes, ctx);
}
