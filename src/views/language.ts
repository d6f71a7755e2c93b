import type { Lang, LanguageSource } from '../i18n/lang.js';
import { context, type SlackMessage, section } from './blocks.js';

/**
 * The answer to `/vidops lang`: the language a person reads, in that language, and how it was
 * decided (their own choice, their Slack language, the workspace default).
 * @see docs/architecture.md, "Languages"
 */
export function languageMessage(lang: Lang, how: { source: LanguageSource; changed: boolean }): SlackMessage {
  const t = lang.t;
  const name = lang.locale === 'fa' ? t.common.languageFa : t.common.languageEn;
  const headline = how.changed ? t.language.languageChosen(name) : t.language.languageCurrent(name);
  const why =
    how.source === 'chosen'
      ? t.language.languageByChoice
      : how.source === 'slack'
        ? t.language.languageBySlack
        : t.language.languageByDefault;
  const lines = how.changed ? [t.language.languageHowToChange] : [why, t.language.languageHowToChange];
  return {
    text: headline,
    blocks: [section(headline), context(lines)],
  };
}
