import { num } from '../../i18n/index.js';
import { isObj, list, viewsOf, wrapList } from '../common/views.js';
import { messages } from './messages.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  messages,
  ask: (p) => messages[p.lang.locale].auditAskWhitelistSet,
  facts: ({ added, removed }, { lang }) => {
    const t = messages[lang.locale];
    return [
      ...(added.length > 0 ? [t.auditAddsAddresses(added.length, num(lang, added.length))] : []),
      ...(removed.length > 0 ? [t.auditRemovesAddresses(removed.length, num(lang, removed.length))] : []),
    ];
  },
  done({ result, lang }) {
    const t = messages[lang.locale];
    const list = isObj(result) ? result.allowedDNS : undefined;
    return t.auditWhitelistUpdated(
      Array.isArray(list) ? t.auditAddressesNow(list.length, num(lang, list.length)) : '',
    );
  },
  slack: (preview, lang) => {
    const t = messages[lang.locale];
    const n = (items: readonly string[]) => num(lang, items.length);
    return [
      ...(preview.added.length > 0 ? wrapList(lang, t.apprAdds(n(preview.added)), preview.added) : []),
      ...(preview.removed.length > 0
        ? wrapList(lang, t.apprRemoves(n(preview.removed)), preview.removed)
        : []),
      ...wrapList(lang, t.apprWhitelistAfter(n(preview.after)), preview.after),
      ...wrapList(lang, t.apprWhitelistBefore(n(preview.before)), preview.before),
      ...(preview.after.length === 0 ? [t.apprWhitelistEmpty] : []),
    ];
  },
  cli: (preview, lang) => {
    const t = messages[lang.locale];
    return [
      `  ${t.cliBefore(list(preview.before, lang))}`,
      `  ${t.cliAfter(list(preview.after, lang))}`,
      `  ${t.cliAddedRemoved(list(preview.added, lang, t.cliNoneWord), list(preview.removed, lang, t.cliNoneWord))}`,
    ];
  },
});
