import { COMMAND_HELP } from '../core/commands-help.js';
import { PLAYER_ERROR_CODES } from '../core/player-errors.js';
import { buildPolicy, decide } from '../core/policy.js';
import { say } from '../core/said.js';
import { ENGLISH, type Lang, langFor } from '../i18n/index.js';
import {
  compactAnswer,
  explainMessage,
  helpMessage,
  type Message,
  maskValidMobiles,
  parseErrorMessage,
  protectionMessage,
  retryMessage,
  retryModal,
  unblockMessage,
  unblockModal,
  unknownCodeMessage,
  whitelistMessage,
} from './everyday.js';
import { checkBlockKitLimits } from './limits.js';

describe('numbers in refusals', () => {
  it.each([
    ['"09121234567 09351234567" holds 2 numbers', '"0912***4567 0935***4567" holds 2 numbers'],
    ['0912345 is too short for a mobile number in IR', '0912345 is too short for a mobile number in IR'],
    ['+98 912 123 4567 and 0912-123-4567', '+9891***4567 and 0912***4567'],
    ['۰۹۱۲۱۲۳۴۵۶۷ pasted twice: ۰۹۱۲۱۲۳۴۵۶۷', '0912***4567 pasted twice: 0912***4567'],
    ['02188887777 is a landline, not a mobile number', '02188887777 is a landline, not a mobile number'],
    // Two numbers joined by a dash are one run of 22 digits, once too long to try and shown whole.
    ['0912-123-4567-0935-123-4567 are two', '0912***4567-0935***4567 are two'],
    ['card 6037-9911-2233-4455 is no mobile number', 'card 6037-9911-2233-4455 is no mobile number'],
  ])('"%s" is shown as "%s"', (text, shown) => {
    expect(maskValidMobiles(text, 'IR')).toBe(shown);
  });

  it('an agent pastes 320 numbers at once: each is masked, and the answer does not hold the bot up', () => {
    // Read as one run of space-separated groups, every stretch of groups was once tried as a
    // number: 70 s of a blocked event loop for these 3,847 characters, and longer for more.
    const numbers = Array.from({ length: 320 }, (_, i) => `0912${String(1_000_000 + i)}`);
    const started = performance.now();
    const shown = maskValidMobiles(`"${numbers.join(' ')}" holds 320 numbers`, 'IR');
    const tookMs = performance.now() - started;
    expect(shown).toBe(`"${numbers.map((n) => `0912***${n.slice(-4)}`).join(' ')}" holds 320 numbers`);
    expect(tookMs).toBeLessThan(2_000);
  });
});

describe("the service's answer in a reply", () => {
  it('the service answers with 1 MiB of mobile numbers: the reply shows its start masked', () => {
    // Scrubbed whole before it was cut, such an answer held the event loop for about a quarter of a
    // second; the next test holds the cut before the scrub (not a timer: timings belong to the bench).
    const log = Array.from({ length: 70_000 }, (_, i) => `09121${String(i).padStart(6, '0')}`);
    const shown = compactAnswer({ unblocked: true, log });
    expect(shown.startsWith('{"unblocked":true,"log":["0912***0000","0912***0001"')).toBe(true);
    expect(shown).not.toMatch(/09121\d{6}/);
  });

  it('an answer is cut before it is scrubbed: a key cut in two there never shows, however the scrub shortens what comes before', () => {
    const key = `sk-${'q'.repeat(61)}`;
    // 26,000 characters of keys: the cut falls inside one, and each whole one scrubs to 11.
    const shown = compactAnswer(`${key},`.repeat(400), [key]);
    expect(shown.startsWith('[redacted],[redacted],')).toBe(true);
    expect(shown).not.toContain('sk-q');
  });
});

function problems(message: Message): string[] {
  return checkBlockKitLimits(message, 'message');
}

describe('every everyday message is within Block Kit limits', () => {
  it('help with every command', () => {
    expect(problems(helpMessage(COMMAND_HELP, { isLead: true }, ENGLISH))).toEqual([]);
  });

  it('a whitelist of 2,000 addresses is summarised, never cutting an address', () => {
    const ips = Array.from(
      { length: 2000 },
      (_, i) => `2001:db8:${(i >> 8).toString(16)}::${(i & 255).toString(16)}`,
    );
    const message = whitelistMessage(ips, ENGLISH);
    expect(problems(message)).toEqual([]);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('`2001:db8:0::95`');
    expect(text).toContain('… and 1850 more.');
  });

  it('the protection settings, with unknown fields the service sent', () => {
    const message = protectionMessage(
      { fontColor: '#e74c3c', opacity: 0.5, link: { expireTime: '2h' } },
      { fontColor: '#e74c3c', newThing: { deep: 'x'.repeat(5000) } },
      ENGLISH,
    );
    expect(problems(message)).toEqual([]);
    expect(JSON.stringify(message.blocks)).toContain('red (#e74c3c)');
    expect(JSON.stringify(message.blocks)).toContain('Also sent by the service');
  });

  it('explain, known and unknown', () => {
    for (const entry of PLAYER_ERROR_CODES) {
      const message = explainMessage(
        {
          code: String(entry.from),
          meaning: entry.meaning,
          fix: entry.fix,
          action: entry.action,
        },
        ENGLISH,
      );
      expect(problems(message)).toEqual([]);
    }
    expect(problems(unknownCodeMessage('4242', PLAYER_ERROR_CODES, ENGLISH))).toEqual([]);
  });

  it('outcomes of unblock and retry with a long answer and long titles', () => {
    const unblock = unblockMessage({
      lang: ENGLISH,
      masked: '0912***6789',
      viewer: { actionType: 'attacker', blocked: true },
      warnings: [say.warnNotBlocked()],
      outcome: {
        kind: 'succeeded',
        requestId: 'R-ABCDEFGH',
        answer: { mobileNumber: '09123456789', note: 'y'.repeat(5000) },
      },
    });
    expect(problems(unblock)).toEqual([]);
    expect(JSON.stringify(unblock)).not.toContain('09123456789');
    const retry = retryMessage({
      lang: ENGLISH,
      fileId: '6710b0000000000000000203',
      title: `<!channel> ${'t'.repeat(4000)}`,
      status: 'failed',
      warnings: [],
      outcome: { kind: 'pending', requestId: 'R-ABCDEFGH', why: null, approvalChannel: 'C0APPROVALS' },
    });
    expect(problems(retry)).toEqual([]);
    expect(JSON.stringify(retry.blocks)).toContain('&lt;!channel&gt;');
  });
});

describe('in Persian, which runs longer, every everyday message and modal is within Block Kit limits', () => {
  const fa = langFor('fa');

  it('help, for a lead and for an agent', () => {
    expect(problems(helpMessage(COMMAND_HELP, { isLead: true }, fa))).toEqual([]);
    expect(problems(helpMessage(COMMAND_HELP, { isLead: false }, fa))).toEqual([]);
  });

  it('a whitelist of 2,000 addresses, each isolated', () => {
    const ips = Array.from(
      { length: 2000 },
      (_, i) => `2001:db8:${(i >> 8).toString(16)}::${(i & 255).toString(16)}`,
    );
    const message = whitelistMessage(ips, fa);
    expect(problems(message)).toEqual([]);
    expect(JSON.stringify(message.blocks)).toContain('… و ۱٬۸۵۰ نشانی دیگر.');
  });

  it('the protection settings with a long unknown field', () => {
    const message = protectionMessage(
      { fontColor: '#e74c3c', opacity: 0.5, link: { expireTime: '2h' } },
      { newThing: { deep: 'x'.repeat(5000) } },
      fa,
    );
    expect(problems(message)).toEqual([]);
  });

  it('explain of every code, an unknown code, and the two modals', () => {
    for (const entry of PLAYER_ERROR_CODES) {
      const message = explainMessage(
        { code: String(entry.from), meaning: entry.meaning, fix: entry.fix, action: entry.action },
        fa,
      );
      expect(problems(message)).toEqual([]);
    }
    expect(problems(unknownCodeMessage('4'.repeat(3000), PLAYER_ERROR_CODES, fa))).toEqual([]);
    expect(checkBlockKitLimits({ view: unblockModal('{}', fa) }, 'modal')).toEqual([]);
    expect(checkBlockKitLimits({ view: retryModal('{}', fa) }, 'modal')).toEqual([]);
  });

  it.each([
    ['succeeded', { kind: 'succeeded', requestId: 'R-ABCDEFGH', answer: { note: 'y'.repeat(5000) } }],
    ['failed', { kind: 'failed', requestId: 'R-ABCDEFGH', error: 'e'.repeat(3000) }],
    [
      'pending',
      {
        kind: 'pending',
        requestId: 'R-ABCDEFGH',
        why: say.whyRateLimit(3, 'w'.repeat(3000)),
        approvalChannel: 'C0APPROVALS',
      },
    ],
    ['denied', { kind: 'denied', reason: 'r'.repeat(3000) }],
    ['other', { kind: 'other', requestId: 'R-ABCDEFGH', state: 'unknown' }],
  ] as const)('unblock and retry that ended %s, with long texts', (_, outcome) => {
    const warnings = Array.from({ length: 3 }, () => say.idShape('file', 'w'.repeat(300)));
    const unblock = unblockMessage({
      lang: fa,
      masked: '0912***6789',
      viewer: { actionType: 'a'.repeat(3000), blocked: true },
      warnings,
      outcome,
    });
    expect(problems(unblock)).toEqual([]);
    const retry = retryMessage({
      lang: fa,
      fileId: '6710b0000000000000000203',
      title: `عنوان ${'ت'.repeat(4000)}`,
      status: 'failed',
      warnings,
      outcome,
    });
    expect(problems(retry)).toEqual([]);
  });

  it('a parse error with a long usage', () => {
    expect(problems(parseErrorMessage('م'.repeat(5000), '/vidops unblock <mobile>', fa))).toEqual([]);
  });
});

describe('why a change waits, in the reader’s language', () => {
  it('an agent reading Persian over the rate limit reads why in Persian, not the policy’s English', () => {
    const policy = buildPolicy({
      leads: ['U0LEAD'],
      fileText: 'viewer.unblock: { rateLimit: { max: 3, per: 1h } }',
    });
    const agent = { id: 'U0AGENT', groups: [] };
    const now = new Date('2026-11-20T10:00:00Z');
    const decision = decide(policy, { operation: 'viewer.unblock', actor: agent, recentCount: 3, now });
    expect(decision.kind).toBe('approval');
    const why = decision.kind === 'approval' ? decision.why : null;
    const text = (lang: Lang) =>
      JSON.stringify(
        retryMessage({
          lang,
          fileId: '6710b0000000000000000203',
          title: null,
          status: 'failed',
          warnings: [],
          outcome: { kind: 'pending', requestId: 'R-ABCDEFGH', why, approvalChannel: 'C0APPROVALS' },
        }).blocks,
      );
    expect(text(ENGLISH)).toContain('over the rate limit of 3 per hour');
    expect(text(langFor('fa'))).toContain('بیش از سقف ۳ بار در هر ساعت');
    expect(text(langFor('fa'))).not.toContain('rate limit');
  });
});
