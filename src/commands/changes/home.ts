import type { ProtectionConfig } from '../../client/types.js';
import { isAgent, isLead, mayBreakGlass } from '../../core/policy.js';
import type { Reads } from '../../services/reads.js';
import type { Operations } from '../../services/types.js';
import { HOME_LIMITS, type HomeModel, homeNotAllowedView, homeView } from '../../views/home.js';
import { checkBlockKit, lookUpPerson, type Person, problemText, type SlackContext } from '../context.js';

/**
 * Builds and publishes a person's App Home tab: on `app_home_opened`, on Refresh, and when a
 * request they are involved in changes.
 * @see docs/architecture.md, "Approvals"
 */

/** The protection settings for the Home tab, or why they could not be read. */
export async function readProtection(ctx: SlackContext): Promise<HomeModel['protection']> {
  try {
    const { raw: _raw, ...config } = await ctx.ops.protection();
    const settings: ProtectionConfig = config;
    return settings;
  } catch (error) {
    return { error: problemText(ctx, error, 'reading protection settings for the Home tab') };
  }
}

/**
 * What a Home tab is built from: the Slack side, and the services' reads with the time-boxed
 * changes in force (docs/time-boxed.md).
 */
export type HomeContext = SlackContext & { ops: Reads & Pick<Operations, 'timeBoxesInForce'> };

/**
 * Publishes the Home tab of `userId`, in their language. `protection` may be passed when several
 * tabs are built at once (one upstream read for all); `person` when the owner is the person of the
 * request in hand (a click on their Home tab), already looked up. Which requests and audit events
 * a person sees is the services' rule (`homeRecords`).
 */
export async function publishHome(
  ctx: HomeContext,
  userId: string,
  options: { notice?: string | null; protection?: HomeModel['protection']; person?: Person } = {},
): Promise<void> {
  const { actor, lang } = await (options.person ?? lookUpPerson(ctx, userId)).who();
  if (!isAgent(ctx.policy, actor)) {
    // People outside AGENTS see what vidops is, and nothing of the team's requests or settings.
    const view = homeNotAllowedView(lang);
    checkBlockKit(ctx, { view }, 'home');
    await ctx.web.views.publish({ user_id: userId, view });
    return;
  }
  const lead = isLead(ctx.policy, actor);
  const [{ overview, audit }, protection, delegations, breakGlass, timeBoxes] = await Promise.all([
    ctx.ops.homeRecords(actor, HOME_LIMITS.audit),
    options.protection === undefined ? readProtection(ctx) : Promise.resolve(options.protection),
    ctx.ops.delegations(actor),
    lead ? ctx.ops.unreviewedBreakGlass() : Promise.resolve([]),
    ctx.ops.timeBoxesInForce(),
  ]);
  const view = homeView(
    {
      userId,
      isLead: lead,
      overview,
      delegations,
      breakGlass,
      breakGlassOffered: new Set(
        overview.mine
          .filter((r) => r.state === 'pending' && mayBreakGlass(ctx.policy, r.operation, actor))
          .map((r) => r.id),
      ),
      protection,
      audit,
      notice: options.notice ?? null,
      builtAt: ctx.clock().toISOString(),
      timeBoxes,
    },
    lang,
  );
  checkBlockKit(ctx, { view }, 'home');
  await ctx.web.views.publish({ user_id: userId, view });
}
