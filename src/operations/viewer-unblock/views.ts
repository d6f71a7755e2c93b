import { maskMobile } from '../../core/mask.js';
import { ltr } from '../../i18n/index.js';
import { code, isolated } from '../../views/blocks.js';
import { repeatLines } from '../../views/viewer-history.js';
import { shownOrNull, viewsOf } from '../common/views.js';
import { messages } from './messages.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, {
  messages,
  noRevert: (lang) => lang.t.timeBox.boxNoRevertUnblock,
  facts: () => [],
  ask: (p) => p.t.auditAskVerb('unblock', p.target),
  done: (p) => p.t.auditViewerUnblocked(p.targetId === undefined ? p.target : p.id(p.targetId)),
  slack: (preview, lang) => {
    const t = messages[lang.locale];
    const facts = [
      preview.blocked === true ? t.apprBlocked : preview.blocked === false ? t.apprNotBlocked : null,
      preview.actionType ? t.apprRisk(isolated(lang, preview.actionType, 20)) : null,
    ].filter((f) => f !== null);
    const repeat =
      preview.repeat === undefined
        ? []
        : [repeatLines(lang, preview.mobileNumber, preview.repeat).join('\n')];
    return [t.apprUnblocks(ltr(lang, code(maskMobile(preview.mobileNumber))), facts), ...repeat];
  },
  cli: (preview, lang) => {
    const t = messages[lang.locale];
    const state =
      preview.blocked === true
        ? t.cliBlocked(shownOrNull(preview.actionType))
        : preview.blocked === false
          ? t.cliNotListedBlocked
          : t.cliBlockUnknown;
    return [`  ${t.cliViewerPreview(maskMobile(preview.mobileNumber), state)}`];
  },
});
