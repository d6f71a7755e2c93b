import { defineArea } from '../../i18n/define.js';

/**
 * What only this operation says, in English and Persian: what the audit log says of a created
 * folder. Its views read it as `messages[lang.locale]`; the catalog's test finds it through
 * `VIEWS`.
 * @see docs/architecture.md, "Languages"
 */

export const messages = defineArea(
  {
    auditFolderCreated: (title: string, as: string) => `Folder ${title} created${as}`,
    auditCreatedAs: (id: string) => ` as ${id}`,
  },
  {
    auditFolderCreated: (title, as) => `پوشه‌ی ${title} ساخته شد${as}`,
    auditCreatedAs: (id) => ` با شناسه‌ی ${id}`,
  },
);
