import { defineArea } from '../../i18n/define.js';

/** What only a folder created says, in English and Persian (docs/architecture.md, "Languages"). */

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
