import type { ProtectionConfig } from '../../client/types.js';
import { isAgent, isLead, mayBreakGlass } from '../../core/policy.js';
import type { Lang } from '../../i18n/index.js';
import { HOME_LIMITS, type HomeModel, homeNotAllowedView, homeView } from '../../views/home.js';
import { checkBlockKit, problemText, resolveActor, type SlackContext } from '../context.js';

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
 * Publishes the Home tab of `userId`. `protection` may be passed when several tabs are built at
 * once (one upstream read for all). Which requests and audit events a person sees is the
 * services' rule (`homeRecords`). The tab is in the owner's language (`ctx.languages.of(userId)`)
 * unless `lang` says otherwise; callers need not pass it.
 */
export async function publishHome(
  ctx: SlackContext,
  userId: string,
  options: { notice?: string | null; protection?: HomeModel['protection']; lang?: Lang } = {},
): Promise<void> {
  const [{ actor, groups }, lang] = await Promise.all([
    resolveActor(ctx, userId),
    options.lang === undefined ? ctx.languages.of(userId) : Promise.resolve(options.lang),
  ]);
  const who = { id: userId, groups };
  if (!isAgent(ctx.policy, who)) {
    // People outside AGENTS see what vidops is, and nothing of the team's requests or settings.
    const view = homeNotAllowedView(lang);
    checkBlockKit(ctx, { view }, 'home');
    await ctx.web.views.publish({ user_id: userId, view });
    return;
  }
  const lead = isLead(ctx.policy, who);
  const [{ overview, audit }, protection, delegations, breakGlass] = await Promise.all([
    ctx.ops.homeRecords(actor, HOME_LIMITS.audit),
    options.protection === undefined ? readProtection(ctx) : Promise.resolve(options.protection),
    ctx.ops.delegations(actor),
    lead ? ctx.ops.unreviewedBreakGlass() : Promise.resolve([]),
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
          .filter((r) => r.state === 'pending' && mayBreakGlass(ctx.policy, r.operation, who))
          .map((r) => r.id),
      ),
      protection,
      audit,
      notice: options.notice ?? null,
      builtAt: ctx.clock().toISOString(),
    },
    lang,
  );
  checkBlockKit(ctx, { view }, 'home');
  await ctx.web.views.publish({ user_id: userId, view });
}
