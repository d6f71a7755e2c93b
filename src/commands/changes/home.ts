import type { ProtectionConfig } from '../../client/types.js';
import type { AuditEvent } from '../../core/model.js';
import { isAgent, isLead, mayRun } from '../../core/policy.js';
import { HOME_LIMITS, type HomeModel, homeNotAllowedView, homeView } from '../../views/home.js';
import { type AppContext, checkBlockKit, problemText, resolveActor } from '../context.js';

/**
 * Builds and publishes a person's App Home tab: on `app_home_opened`, on Refresh, and when a
 * request they are involved in changes.
 * @see docs/architecture.md, "Approvals"
 */

/** How far back an agent's own activity is looked for in the log. */
const OWN_ACTIVITY_SCAN = 300;

/** The protection settings for the Home tab, or why they could not be read. */
export async function readProtection(ctx: AppContext): Promise<HomeModel['protection']> {
  try {
    const { raw: _raw, ...config } = await ctx.client.protection.get();
    const settings: ProtectionConfig = config;
    return settings;
  } catch (error) {
    return { error: problemText(ctx, error, 'reading protection settings for the Home tab') };
  }
}

/**
 * Publishes the Home tab of `userId`. `protection` may be passed when several tabs are built at
 * once (one upstream read for all). Leads (or whoever the policy lets read the audit log) see
 * the last events of the log; others only the events about their own requests.
 */
export async function publishHome(
  ctx: AppContext,
  userId: string,
  options: { notice?: string | null; protection?: HomeModel['protection'] } = {},
): Promise<void> {
  const { actor, groups } = await resolveActor(ctx, userId);
  const who = { id: userId, groups };
  if (!isAgent(ctx.policy, who)) {
    // People outside AGENTS see what vidops is, and nothing of the team's requests or settings.
    const view = homeNotAllowedView();
    checkBlockKit(ctx, { view }, 'home');
    await ctx.web.views.publish({ user_id: userId, view });
    return;
  }
  const [overview, protection] = await Promise.all([
    ctx.ops.listRequests(actor),
    options.protection === undefined ? readProtection(ctx) : Promise.resolve(options.protection),
  ]);
  const readsLog = mayRun(ctx.policy, 'audit', who);
  let events: AuditEvent[];
  if (readsLog) {
    events = await ctx.store.listAudit({ last: HOME_LIMITS.audit });
  } else {
    const mine = new Set(overview.mine.map((r) => r.id));
    const recent = await ctx.store.listAudit({ last: OWN_ACTIVITY_SCAN });
    events = recent
      .filter((e) => e.actor.id === userId || (e.requestId !== null && mine.has(e.requestId)))
      .slice(-HOME_LIMITS.audit);
  }
  const view = homeView({
    userId,
    isLead: isLead(ctx.policy, who),
    overview,
    protection,
    audit: { scope: readsLog ? 'all' : 'mine', events },
    notice: options.notice ?? null,
    builtAt: ctx.clock().toISOString(),
  });
  checkBlockKit(ctx, { view }, 'home');
  await ctx.web.views.publish({ user_id: userId, view });
}
