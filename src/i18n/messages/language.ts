import { defineArea } from '../define.js';

/**
 * `/vidops lang`: what a person reads after choosing their language, or asking which it is.
 * @see docs/architecture.md, "Languages"
 */
export const language = defineArea(
  {
    languageChosen: (name: string) => `From now on vidops speaks to you in ${name}.`,
    languageCurrent: (name: string) => `vidops speaks to you in ${name}.`,
    languageByChoice: 'You chose it with `/vidops lang`.',
    languageBySlack: 'It follows your Slack language.',
    languageByDefault:
      'It is the workspace default: you have not chosen one, and your Slack language is neither.',
    languageHowToChange: 'To change it: `/vidops lang fa` for Persian, `/vidops lang en` for English.',
  },
  {
    languageChosen: (name: string) => `از این پس vidops با شما به ${name} صحبت می‌کند.`,
    languageCurrent: (name: string) => `زبان vidops برای شما ${name} است.`,
    languageByChoice: 'این را خودتان با \u2068`/vidops lang`\u2069 انتخاب کرده‌اید.',
    languageBySlack: 'این زبان از تنظیمات زبان Slack شما گرفته شده است.',
    languageByDefault:
      'این زبان پیش‌فرض این فضای کاری است: شما زبانی انتخاب نکرده‌اید و زبان Slack شما هیچ‌یک از این دو نیست.',
    languageHowToChange:
      'برای تغییر آن: \u2068`/vidops lang fa`\u2069 برای فارسی، \u2068`/vidops lang en`\u2069 برای انگلیسی.',
  },
);
