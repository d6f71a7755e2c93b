import type { CommandKind } from '../core/grammar.js';
import { languageMessage } from '../views/language.js';
import { respondChecked, type SlashHandler } from './context.js';

/**
 * `/vidops lang fa|en` keeps the person's choice and answers in the language just chosen;
 * `/vidops lang` alone says which language they read and how it was decided. A language is not
 * a change to the service: it is kept in the store, not audited.
 * @see docs/architecture.md, "Languages"
 */
const lang: SlashHandler = async ({ command, ctx, actor, respond }) => {
  if (command.kind !== 'lang') return;
  if (command.locale === null) {
    const decision = await ctx.languages.decide(actor.id);
    await respondChecked(
      ctx,
      respond,
      languageMessage(decision.lang, { source: decision.source, changed: false }),
    );
    return;
  }
  const chosen = await ctx.languages.choose(actor.id, command.locale);
  await respondChecked(ctx, respond, languageMessage(chosen, { source: 'chosen', changed: true }));
};

/** The language command by kind; the router merges it with the others. */
export const languageHandlers = { lang } satisfies Partial<Record<CommandKind, SlashHandler>>;
