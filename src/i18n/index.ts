/**
 * The message catalog (English and Persian), the reader's language, and formatting per language.
 * @see docs/architecture.md, "Languages"
 */
export { type Area, defineArea, type Phrase, type Phrases, type Shape } from './define.js';
export { beforeAfter, dateTime, FSI, list, ltr, num, PDI, persianDigits, relative } from './format.js';
export {
  ENGLISH,
  fixedLanguages,
  type Lang,
  type LanguageDecision,
  type LanguageSource,
  type Languages,
  langFor,
  type Messages,
} from './lang.js';
export { DEFAULT_TIME_ZONE, isLocale, isTimeZone, LOCALES, type Locale, localeOf } from './locale.js';
