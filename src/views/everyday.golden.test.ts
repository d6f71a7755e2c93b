import { COMMAND_HELP } from '../core/commands-help.js';
import { PLAYER_ERROR_CODES } from '../core/player-errors.js';
import { say } from '../core/said.js';
import { ENGLISH, langFor } from '../i18n/index.js';
import { sayIn } from './errors.js';
import {
  busyMessage,
  type ChangeOutcome,
  explainMessage,
  helpMessage,
  notAllowedMessage,
  parseErrorMessage,
  protectionMessage,
  refusalText,
  retryMessage,
  retryModal,
  unblockMessage,
  unblockModal,
  unknownCodeMessage,
  whitelistMessage,
} from './everyday.js';
import { unblockManyModal } from './modals/unblock-many.js';

/**
 * Golden snapshots of the everyday views in English and Persian: a change of wording shows up
 * as a diff to read, in both languages.
 * @see docs/architecture.md, "Languages"
 */

const OUTCOMES: readonly [string, ChangeOutcome][] = [
  ['succeeded', { kind: 'succeeded', requestId: 'R-7K2M9QXA', answer: { ok: true } }],
  ['failed', { kind: 'failed', requestId: 'R-7K2M9QXA', error: 'The video service failed (500).' }],
  ['pending', { kind: 'pending', requestId: 'R-7K2M9QXA', why: null, approvalChannel: 'C0APPROVALS' }],
  ['denied', { kind: 'denied', reason: 'not allowed' }],
  ['other', { kind: 'other', requestId: 'R-7K2M9QXA', state: 'unknown' }],
];

describe.each([
  ['English', ENGLISH],
  ['Persian', langFor('fa')],
])('the everyday views in %s', (_, lang) => {
  it('help for an agent and for a lead', () => {
    const agent = COMMAND_HELP.filter((e) => !e.leadsOnly);
    expect(helpMessage(agent, { isLead: false }, lang)).toMatchSnapshot();
    expect(helpMessage(COMMAND_HELP, { isLead: true }, lang)).toMatchSnapshot();
  });

  it('the refusals before anything runs', () => {
    expect(notAllowedMessage(lang)).toMatchSnapshot();
    expect(busyMessage(lang)).toMatchSnapshot();
    const foreign = refusalText(
      say.grammarNobodyUnblocked(say.phoneForeign('+63 917 123 4567', 'PH', ['IR'])),
      'IR',
      lang,
    );
    expect(parseErrorMessage(foreign, '/vidops unblock <mobile>', lang)).toMatchSnapshot();
    expect(sayIn(lang, say.modalNothingRetried(say.idSpaces('file', '6710 b')))).toMatchSnapshot();
  });

  it.each(OUTCOMES)('unblock and retry that ended %s', (_, outcome) => {
    expect(
      unblockMessage({
        lang,
        masked: '0912***6789',
        viewer: { actionType: 'attacker', blocked: true },
        warnings: [],
        outcome,
      }),
    ).toMatchSnapshot();
    expect(
      retryMessage({
        lang,
        fileId: '6710b0000000000000000203',
        title: 'جلسه‌ی اول',
        status: 'failed',
        warnings: [],
        outcome,
      }),
    ).toMatchSnapshot();
  });

  it('the whitelist, empty and with addresses', () => {
    expect(whitelistMessage([], lang)).toMatchSnapshot();
    expect(whitelistMessage(['203.0.113.7', '2a00:1::4'], lang)).toMatchSnapshot();
  });

  it('the protection settings', () => {
    expect(
      protectionMessage(
        { fontColor: '#e74c3c', opacity: 0.5, player: { offlineMode: true }, link: { expireTime: '2h' } },
        { newThing: 'x' },
        lang,
      ),
    ).toMatchSnapshot();
  });

  it('explain, known and unknown, and its two modals', () => {
    const entry = PLAYER_ERROR_CODES.find((e) => e.action === 'unblock');
    if (entry === undefined) throw new Error('no unblock entry');
    expect(
      explainMessage({ code: '9910', meaning: entry.meaning, fix: entry.fix, action: entry.action }, lang),
    ).toMatchSnapshot();
    expect(unknownCodeMessage('4242', PLAYER_ERROR_CODES.slice(0, 3), lang)).toMatchSnapshot();
    expect(unblockModal('{}', lang)).toMatchSnapshot();
    expect(retryModal('{}', lang)).toMatchSnapshot();
  });

  it('the Unblock many form: its examples shown as written, one per line', () => {
    const form = unblockManyModal('{}', lang);
    expect(form).toMatchSnapshot();
    expect(JSON.stringify(form)).toContain('"0912 345 6789\\n+98 935 111 2222"');
  });
});
