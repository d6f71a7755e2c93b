import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';

/**
 * The browser suite (`npm run test:browser`): `npm start` with no Slack tokens, as a newcomer
 * runs it, and a real, headless Chromium (Debian's `chromium`, or CHROMIUM_PATH) on the address it
 * prints, with the page's per-start token in it. Each scenario is what a support team does there, and leaves a screenshot in
 * test-results/playground/ for the reader. Ends with one line, `browser: N passed, N failed`, and the
 * screenshots written.
 * @see docs/architecture.md, "Emulator and playground"
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = join(ROOT, 'test-results', 'playground');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 15_000;

const FOLDER = '6710a0000000000000000103';
const FILE = '6710b0000000000000000201';
/** A 1×1 PNG: the cover image uploaded in the file edit modal. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const WRONG_FOLDER = '6710a0000000000000000101';
const OTHER_FOLDER = '6710a0000000000000000102';

interface Started {
  url: string;
  child: ChildProcess;
  output: string[];
  cwd: string;
}

/** `npm start`'s entry point under tsx, in an empty directory (no .env) and an environment without Slack. */
async function startPlayground(): Promise<Started> {
  const cwd = await mkdtemp(join(tmpdir(), 'vidops-browser-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? cwd,
    PORT: '0',
    LOG_LEVEL: 'warn',
    TZ: 'Asia/Tehran',
  };
  // tsx resolved from here: the child runs in a directory of its own.
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'src', 'main.ts')],
    {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL printed within 60 s:\n${output.join('')}`)),
      60_000,
    );
    const read = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      // The address with its token: the page opens from it and nothing else.
      const found = /vidops playground: open (http:\/\/\S+\?token=\S+)/.exec(output.join(''));
      if (found?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing a URL:\n${output.join('')}`));
    });
  });
  return { url, child, output, cwd };
}

async function stopPlayground(started: Started): Promise<void> {
  if (started.child.exitCode === null) {
    const exited = new Promise<void>((resolve) => started.child.once('exit', () => resolve()));
    started.child.kill('SIGTERM');
    await exited;
  }
  await rm(started.cwd, { recursive: true, force: true });
}

interface Context {
  page: Page;
  browser: Browser;
  /** The printed address, with the token. */
  url: string;
  /** The request the agent asked for, once asked. */
  requestId?: string;
}

const screenshots: string[] = [];

async function shoot(page: Page, name: string): Promise<void> {
  const file = join(SHOTS, `${String(screenshots.length + 1).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  screenshots.push(file);
}

function fail(message: string): never {
  throw new Error(message);
}

async function persona(page: Page, label: RegExp): Promise<void> {
  const select = page.getByLabel('Persona');
  const options = await select.locator('option').allTextContents();
  const wanted =
    options.find((o) => label.test(o)) ?? fail(`no persona ${label} among ${options.join(', ')}`);
  await select.selectOption({ label: wanted });
}

async function openConversation(page: Page, name: string): Promise<void> {
  await page.locator('nav.sidebar').getByRole('link', { name }).click();
  await page
    .locator('#conversation-title')
    .filter({ hasText: name.replace(/^# /, '') })
    .waitFor();
}

async function type(page: Page, text: string): Promise<void> {
  const input = page.getByLabel('Message or /vidops command');
  await input.fill(text);
  await page.keyboard.press('Escape');
  await input.press('Enter');
}

/** The messages of the conversation holding `text` (those everyone sees, unless `ephemeral`). */
function messageWith(page: Page, text: string | RegExp, ephemeral = false): Locator {
  return page
    .locator(`#messages article.message${ephemeral ? '.ephemeral' : ':not(.ephemeral)'}`)
    .filter({ hasText: text });
}

const scenarios: [string, (ctx: Context) => Promise<void>][] = [
  [
    'an agent unblocks a viewer typed in Persian digits and sees the masked reply, which stays put as more arrive',
    async ({ page, url }) => {
      await page.goto(url);
      await page.locator('body[data-ready="true"]').waitFor();
      const banner = await page.locator('.banner').innerText();
      if (!/Local playground: this is not Slack/.test(banner))
        fail(`the page does not say it is a playground: ${banner}`);
      await persona(page, /Sara/);
      await openConversation(page, '# support');
      await type(page, '/vidops unblock ۰۹۱۲ ۱۲۳ ۴۵۶۷');
      const reply = messageWith(page, /unblocked/, true);
      await reply.waitFor();
      const text = await reply.innerText();
      if (!text.includes('0912***4567')) fail(`the reply does not show the masked number: ${text}`);
      if (text.includes('09121234567')) fail('the reply shows the whole number');
      if (!text.includes('Only visible to you')) fail('the reply is not marked ephemeral');
      await shoot(page, 'unblock-persian-digits');
      // A message that did not change keeps its element when another one arrives: what the
      // agent is reading or pointing at is not redrawn under them.
      const drawn = await reply.elementHandle();
      const shown = page.locator('#messages article.message');
      const before = await shown.count();
      await type(page, '/vidops help');
      await shown.nth(before + 1).waitFor();
      if (!(await drawn?.evaluate((node) => node.isConnected)))
        fail('the earlier reply was redrawn when the help arrived');
    },
  ],
  [
    'an agent asks for a folder delete, types a wrong ID and sees the inline error, then the right one',
    async (ctx) => {
      const { page } = ctx;
      const input = page.getByLabel('Message or /vidops command');
      await input.fill('/vidops fol');
      const suggestions = page.getByRole('listbox', { name: 'Commands' });
      await suggestions.getByRole('option', { name: /folder delete/ }).waitFor();
      await shoot(page, 'command-suggestions');
      await type(page, `/vidops folder delete ${FOLDER}`);
      const modal = page.getByRole('dialog');
      await modal.locator('#field-confirm_text').waitFor();
      await modal.locator('#field-reason').fill('Campaign ended; the customer asked for it (ticket 4521).');
      await modal.locator('#field-confirm_text').fill(WRONG_FOLDER);
      await modal.locator('#modal-submit').click();
      const error = modal.locator('[data-error-for="confirm_text"]');
      await error.waitFor({ state: 'visible' });
      await shoot(page, 'delete-wrong-id-inline-error');
      await modal.locator('#field-confirm_text').fill(FOLDER);
      await modal.locator('#modal-submit').click();
      // The modal turns into the result: the request posted for a lead, with its ID.
      const result = page.locator('#modal-body').filter({ hasText: /R-[0-9A-HJKMNP-TV-Z]{8}/ });
      await result.waitFor();
      ctx.requestId =
        /R-[0-9A-HJKMNP-TV-Z]{8}/.exec(await result.innerText())?.[0] ?? fail('no request ID shown');
      await shoot(page, 'delete-request-posted');
      if (await page.locator('#modal-layer').isVisible()) {
        await page.locator('#modal-close').click();
        await page.locator('#modal-layer').waitFor({ state: 'hidden' });
      }
    },
  ],
  [
    'the persona switches to a lead, who approves with the confirm dialog',
    async ({ page, requestId }) => {
      const id = requestId ?? fail('no request from the previous scenario');
      await persona(page, /Leila/);
      await openConversation(page, '# vidops-approvals');
      const message = messageWith(page, id);
      await message.waitFor();
      await message.getByRole('button', { name: 'Approve', exact: true }).click();
      const dialog = page.locator('#confirm-dialog');
      await dialog.waitFor({ state: 'visible' });
      await shoot(page, 'approve-confirm-dialog');
      await dialog.locator('#confirm-yes').click();
    },
  ],
  [
    'the approval message loses its buttons',
    async ({ page, requestId }) => {
      const id = requestId ?? fail('no request from the previous scenario');
      const message = messageWith(page, id);
      await message.locator('button[data-action-id]').first().waitFor({ state: 'detached' });
      await message.filter({ hasText: /approved|deleted|done|succeeded/i }).waitFor();
      // Scrolled in one step in the page: the message may still be redrawn once more (approved,
      // then done), which a scroll that waits for the element to be stable would meet detached.
      await message.last().evaluate((node) => node.scrollIntoView({ block: 'nearest' }));
      await shoot(page, 'approval-message-updated');
    },
  ],
  [
    'the audit channel shows the events with their short hashes',
    async ({ page, requestId }) => {
      const id = requestId ?? fail('no request from the previous scenario');
      await openConversation(page, '# vidops-audit');
      // The publisher keeps a second between posts: the last event (the folder deleted) comes last.
      await messageWith(page, /Folder \S+ deleted/)
        .first()
        .waitFor();
      await messageWith(page, id).first().waitFor();
      const text = await page.locator('#messages').innerText();
      const hashes = text.match(/hash [0-9a-f]{12}/g) ?? [];
      if (hashes.length < 3) fail(`expected the events' short hashes, found ${hashes.length}`);
      await shoot(page, 'audit-channel');
    },
  ],
  [
    'the App Home lists the request',
    async ({ page, requestId }) => {
      const id = requestId ?? fail('no request from the previous scenario');
      await persona(page, /Sara/);
      await page.locator('nav.sidebar').getByRole('link', { name: 'vidops · Home' }).click();
      await page.locator('.home').filter({ hasText: id }).waitFor();
      await shoot(page, 'app-home');
    },
  ],
  [
    'a lead uploads a new cover image in the modal, and the second lead (through the leads group) approves it',
    async ({ page }) => {
      await persona(page, /Leila/);
      await openConversation(page, '# support');
      await type(page, `/vidops file edit ${FILE}`);
      const modal = page.getByRole('dialog');
      await modal
        .locator('#field-cover')
        .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
      await modal.locator('.uploaded').filter({ hasText: 'cover.png' }).waitFor();
      await modal.locator('#field-reason').fill('New artwork from the design team.');
      await shoot(page, 'file-edit-cover-upload');
      await modal.locator('#modal-submit').click();
      const result = page.locator('#modal-body').filter({ hasText: /R-[0-9A-HJKMNP-TV-Z]{8}/ });
      await result.waitFor();
      const id = /R-[0-9A-HJKMNP-TV-Z]{8}/.exec(await result.innerText())?.[0] ?? fail('no request ID shown');
      await page.locator('#modal-close').click();
      await persona(page, /Omid/);
      await openConversation(page, '# vidops-approvals');
      const message = messageWith(page, id);
      await message.getByRole('button', { name: 'Approve', exact: true }).click();
      const dialog = page.locator('#confirm-dialog');
      if (await dialog.isVisible()) await dialog.locator('#confirm-yes').click();
      await message.filter({ hasText: /approved and done/ }).waitFor();
      if (!(await message.innerText()).includes('cover'))
        fail('the approval message does not mention the cover image');
      await shoot(page, 'cover-approved-by-second-lead');
    },
  ],
  [
    'someone outside the support team is told vidops is not for them',
    async ({ page }) => {
      await persona(page, /Nima/);
      await openConversation(page, '# support');
      await type(page, '/vidops help');
      await messageWith(page, /only for the support team/, true).waitFor();
      await shoot(page, 'outsider-refused');
    },
  ],
  [
    'an agent switches to Persian: the reply, the unblock and the modal read right to left',
    async ({ page }) => {
      await persona(page, /Sara/);
      await openConversation(page, '# support');
      await page.getByLabel('Language').selectOption('fa');
      const chosen = messageWith(page, /از این پس/, true);
      await chosen.waitFor();
      // At least the reply to `/vidops lang fa` is Persian, and every Persian text reads right to left.
      if ((await persianDirections(chosen.last())).rtl === 0) fail('the Persian reply has no Persian text');
      await shoot(page, 'persian-language-chosen');
      const replies = page.locator('#messages article.message.ephemeral').filter({ hasText: '0912***4567' });
      // The first scenario's English reply holds the same masked number: wait for a new one.
      const before = await replies.count();
      await type(page, '/vidops unblock 0912 123 4567');
      const reply = replies.nth(before);
      await reply.waitFor();
      if ((await persianDirections(reply)).rtl === 0) fail('the unblock reply has no Persian text');
      await shoot(page, 'persian-unblock');
      // Another folder than the one deleted above.
      await type(page, `/vidops folder delete ${OTHER_FOLDER}`);
      const modal = page.getByRole('dialog');
      await modal.locator('#field-confirm_text').waitFor();
      await persianDirections(modal);
      await shoot(page, 'persian-delete-modal');
      await page.locator('#modal-close').click();
      await page.locator('#modal-layer').waitFor({ state: 'hidden' });
      await page.getByLabel('Language').selectOption('en');
      await messageWith(page, /From now on vidops speaks to you in English/, true).waitFor();
    },
  ],
  [
    'the token leaves the address bar, and the page opened without it is refused',
    async ({ page, browser, url }) => {
      if (page.url().includes('token=')) fail(`the token is still in the address bar: ${page.url()}`);
      const stranger = await browser.newContext();
      try {
        const other = await stranger.newPage();
        const response = await other.goto(new URL(url).origin);
        if (response?.status() !== 403) fail(`the page without its token answered ${response?.status()}`);
        if (!(await other.locator('body').innerText()).includes('Open the address printed at start'))
          fail('the refusal does not say which address to open');
        await shoot(other, 'page-without-token-refused');
      } finally {
        await stranger.close();
      }
    },
  ],
  [
    'a page of another origin on this computer posts to the playground: the browser sends the cookie, the playground refuses',
    async ({ page, url }) => {
      const origin = new URL(url).origin;
      const probe = 'CSRF-PROBE-from-another-port';
      const server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(forgingPage(`${origin}/ui/message`, probe));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        await page.goto(`http://127.0.0.1:${port}/`);
        await page.waitForFunction(
          () => (globalThis as unknown as { document: { title: string } }).document.title === 'sent',
        );
      } finally {
        server.close();
      }
      await page.goto(`${origin}/`);
      await page.locator('body[data-ready="true"]').waitFor();
      await openConversation(page, '# support');
      if ((await page.locator('#messages').innerText()).includes(probe))
        fail('a page of another origin posted in #support');
      await shoot(page, 'forged-posts-refused');
    },
  ],
];

/** A page elsewhere that posts to the playground as a lead, every way a page can without asking. */
function forgingPage(target: string, text: string): string {
  const body = JSON.stringify({ user: 'U0LEILA', channel: 'C0SUPPORT', text });
  return `<!doctype html><title>forging</title><script>
const body = ${JSON.stringify(body)};
const sends = [
  fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body }),
  fetch(${JSON.stringify(target)}, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body }),
];
Promise.allSettled(sends).then(() => { document.title = 'sent'; });
</script>`;
}

/**
 * Checks that every element under `root` whose own text starts with a Persian letter is laid out
 * right to left (its computed `direction`), and every one starting with a Latin letter left to
 * right; says how many of each it saw.
 */
async function persianDirections(root: Locator): Promise<{ rtl: number; ltr: number }> {
  const seen = await root.evaluate((element) => {
    // Runs in the page; this project's type-check has no DOM library.
    const TEXT_NODE = 3;
    const view = globalThis as unknown as { getComputedStyle(e: unknown): { direction: string } };
    const result = { rtl: 0, ltr: 0, wrong: [] as string[] };
    const blocks = element.querySelectorAll('.mrkdwn, .block, .input-label, .hint, h3, [dir]');
    for (const block of blocks) {
      const own = [...block.childNodes]
        .filter((n) => n.nodeType === TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .replace(/[\u2066-\u2068][^\u2069]*\u2069/g, '');
      const first = /\p{L}/u.exec(own)?.[0];
      if (first === undefined) continue;
      const wanted = /\p{Script=Arabic}/u.test(first) ? 'rtl' : 'ltr';
      const direction = view.getComputedStyle(block).direction;
      if (direction === wanted) result[wanted] += 1;
      else result.wrong.push(`${direction} for "${own.trim().slice(0, 40)}"`);
    }
    return result;
  });
  if (seen.wrong.length > 0) fail(`text laid out in the wrong direction: ${seen.wrong.join('; ')}`);
  return seen;
}

async function main(): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    process.stdout.write(
      `No browser at ${CHROMIUM}: install Debian's chromium or set CHROMIUM_PATH.\nbrowser: 0 passed, 1 failed\n`,
    );
    return 1;
  }
  await rm(SHOTS, { recursive: true, force: true });
  await mkdir(SHOTS, { recursive: true });
  const started = Date.now();
  let playground: Started | undefined;
  let browser: Browser | undefined;
  let passed = 0;
  let failed = 0;
  try {
    playground = await startPlayground();
    process.stdout.write(`playground at ${playground.url}\n`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const page = await browser.newPage({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
      timezoneId: 'Asia/Tehran',
    });
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const ctx: Context = { page, browser, url: playground.url };
    for (const [name, run] of scenarios) {
      const t0 = Date.now();
      try {
        if (failed > 0) throw new Error('skipped: an earlier scenario failed');
        await run(ctx);
        if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
        passed += 1;
        process.stdout.write(`  ✓ ${name} (${Date.now() - t0} ms)\n`);
      } catch (error) {
        failed += 1;
        process.stdout.write(`  ✕ ${name}\n    ${error instanceof Error ? error.message : String(error)}\n`);
        await shoot(page, `failed-${screenshots.length + 1}`).catch(() => {});
      }
    }
  } catch (error) {
    failed += 1;
    process.stdout.write(
      `  ✕ the playground could not be driven: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    if (playground !== undefined) process.stdout.write(playground.output.join(''));
  } finally {
    await browser?.close();
    if (playground !== undefined) await stopPlayground(playground);
  }
  process.stdout.write(`\nScreenshots (${screenshots.length}):\n`);
  for (const file of screenshots) process.stdout.write(`  ${relative(ROOT, file)}\n`);
  process.stdout.write(`\nbrowser suite: ${Math.round((Date.now() - started) / 1000)} s\n`);
  // The closing line alone, in the plain form CI reads: `browser: N passed, N failed`.
  process.stdout.write(`browser: ${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
