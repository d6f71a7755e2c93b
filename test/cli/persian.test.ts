import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FSI, PDI } from '../../src/i18n/format.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type CliPlace, runVidops } from './run-vidops.js';

/**
 * A Persian-speaking support lead on the command line: `--lang fa` (or `LANG=fa_IR.UTF-8`) prints
 * Persian prose, Latin IDs wrapped in isolates, and Solar Hijri dates in DISPLAY_TIME_ZONE.
 * @see docs/architecture.md, "Languages"
 */

const FOLDER = '6710a0000000000000000103';
const REQUEST_ID = /R-[0-9A-HJKMNP-TV-Z]{8}/;
// 06:00 UTC on 17 October 2024 is 09:30 on 26 Mehr 1403 in Tehran.
const NOW = new Date('2024-10-17T06:00:00.000Z');

let sandbox: Sandbox;
let dir: string;
let place: CliPlace;

beforeAll(async () => {
  sandbox = await startSandbox({ conversionDelayMs: 60_000 });
});

afterAll(() => sandbox.close());

beforeEach(async () => {
  sandbox.reset();
  dir = await mkdtemp(join(tmpdir(), 'vidops-cli-fa-'));
  place = { dir, sandboxUrl: sandbox.url, clock: () => NOW };
});

afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the command line in Persian', () => {
  it('an agent asks to delete a folder: the preview and what happens next are in Persian', async () => {
    const run = await runVidops(place, [
      'folder',
      'delete',
      FOLDER,
      '--confirm',
      FOLDER,
      '--reason',
      'کمپین تمام شد',
      '--lang',
      'fa',
    ]);
    expect(run.code).toBe(0);
    // The services' own notes are translated with the services' texts; here they are marked as notes.
    expect(run.stderr).toMatch(/^توجه: /);
    expect(run.stdout).toContain(`حذف پوشه: پوشه ${FSI}${FOLDER}${PDI}`);
    expect(run.stdout).toContain(`پوشه ${FSI}${FOLDER}${PDI}`);
    expect(run.stdout).toContain('حذف می‌شود');
    expect(run.stdout).toMatch(/درخواست \u2068R-[0-9A-Z]{8}\u2069 در انتظار ۱ تأیید از سرپرستان است/);
    // The expiry in the Solar Hijri calendar, Tehran time.
    expect(run.stdout).toMatch(/در \d* ?[۰-۹]+ مهر ۱۴۰۳ ساعت [۰-۹]{2}:[۰-۹]{2} منقضی می‌شود/);
    expect(run.stdout).not.toMatch(/waiting|expires/);
  });

  it('an agent whose shell is Persian (LANG) unblocks a viewer and reads the result in Persian', async () => {
    const run = await runVidops({ ...place, env: { LANG: 'fa_IR.UTF-8' } }, ['unblock', '09121234567']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`رفع مسدودی بیننده: بیننده‌ی ${FSI}0912***4567${PDI}: انجام شد`);
    expect(run.stdout).toContain(
      `بیننده‌ی ${FSI}0912***4567${PDI} از مسدودی درآمد؛ دوباره می‌تواند تماشا کند.`,
    );
    expect(run.stdout).not.toContain('09121234567');
  });

  it('`requests` lists in Persian with Solar Hijri dates; --lang en wins over LANG', async () => {
    const asked = await runVidops(place, ['folder', 'delete', FOLDER, '--confirm', FOLDER]);
    const id = REQUEST_ID.exec(asked.stdout)?.[0];
    const fa = await runVidops(place, ['requests', '--lang', 'fa']);
    expect(fa.code).toBe(0);
    expect(fa.stdout).toContain(`درخواست‌های ${FSI}cli:sara${PDI}، بازها اول:`);
    expect(fa.stdout).toContain(`${FSI}${id}${PDI}  حذف پوشه: پوشه ${FSI}${FOLDER}${PDI}`);
    expect(fa.stdout).toContain('۲۶ مهر ۱۴۰۳ ساعت ۰۹:۳۰');
    expect(fa.stdout).toContain(`در انتظار تأیید ${FSI}[pending]${PDI}`);
    const en = await runVidops({ ...place, env: { LANG: 'fa_IR.UTF-8' } }, ['requests', '--lang', 'en']);
    expect(en.stdout).toContain('Requests of cli:sara, open first:');
    expect(en.stdout).toContain('at 2024-10-17T06:00:00.000Z');
  });

  it('`audit tail` gives Solar Hijri times in DISPLAY_TIME_ZONE and Persian words around the hashes', async () => {
    await runVidops(place, ['unblock', '09121234567']);
    const tehran = await runVidops(place, ['audit', 'tail', '--lang', 'fa']);
    expect(tehran.code).toBe(0);
    expect(tehran.stdout).toMatch(/^#1 {2}۲۶ مهر ۱۴۰۳ ساعت ۰۹:۳۰ {2}/m);
    expect(tehran.stdout).toMatch(/هش \u2068[0-9a-f]{12}\u2069$/m);
    const utc = await runVidops({ ...place, env: { DISPLAY_TIME_ZONE: 'UTC' } }, [
      'audit',
      'tail',
      '--lang',
      'fa',
    ]);
    expect(utc.stdout).toMatch(/^#1 {2}۲۶ مهر ۱۴۰۳ ساعت ۰۶:۰۰ {2}/m);
  });

  it('a mistyped command is a usage error in Persian; a language vidops does not speak is refused', async () => {
    const typo = await runVidops(place, ['unblok', '0912', '--lang', 'fa']);
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toContain('vidops: فرمان «unblok» شناخته نیست.');
    expect(typo.stderr).toContain(`منظورتان ${FSI}\`vidops unblock\`${PDI} بود؟`);
    expect(typo.stderr).toContain(`فهرست فرمان‌ها را با ${FSI}\`vidops help\`${PDI} ببینید.`);
    const german = await runVidops(place, ['requests', '--lang', 'de']);
    expect(german).toMatchObject({ code: 2, stdout: '' });
    expect(german.stderr).toContain('--lang is fa or en, not "de".');
  });
});
