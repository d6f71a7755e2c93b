import { requestWith, VIEW_NOW } from '../../test/fixtures/requests.js';
import type { JsonObject } from '../core/json.js';
import { langFor } from '../i18n/index.js';
import { approvalMessage } from '../views/approval.js';
import { mrkdwnToHtml, type NameBook, textToHtml } from './mrkdwn.js';
import { blocksToHtml, type RenderContext } from './render.js';

/**
 * The playground draws mrkdwn and Block Kit as Slack does for what vidops sends, and never lets
 * text from outside (a folder title, a reason) become markup.
 * @see docs/architecture.md, "Emulator and playground"
 */

const names: NameBook = {
  user: (id) => ({ U0LEILA: 'Leila Moradi' })[id],
  channel: (id) => ({ C0APPROVALS: 'vidops-approvals' })[id],
  group: (id) => ({ S0LEADS: 'support-leads' })[id],
};
const ctx: RenderContext = { names, people: [{ id: 'U0LEILA', name: 'Leila Moradi' }] };
const inner = (html: string) => html.replace(/^<div class="mrkdwn" dir="(?:auto|ltr|rtl)">|<\/div>$/g, '');

describe('mrkdwn as Slack draws it', () => {
  it('bold, italics, strike and code, next to words and punctuation, not inside words', () => {
    expect(inner(mrkdwnToHtml('*Approval needed:* _Delete folder_ ~old~ `R-9NDD344Y`.'))).toBe(
      '<strong>Approval needed:</strong> <em>Delete folder</em> <del>old</del> <code dir="ltr">R-9NDD344Y</code>.',
    );
    expect(inner(mrkdwnToHtml('0912***4567 and snake_case_name stay as written'))).toBe(
      '<bdi dir="ltr">0912***4567</bdi> and snake_case_name stay as written',
    );
  });

  it('links, mentions of people, channels and groups, and @here', () => {
    const html = mrkdwnToHtml(
      'See <https://example.com/a?b=1&amp;c=2|the docs>; <@U0LEILA> approved in <#C0APPROVALS>, <!subteam^S0LEADS> <!here>',
      names,
    );
    expect(html).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the docs</a>',
    );
    expect(html).toContain('<span class="mention" data-user="U0LEILA">@Leila Moradi</span>');
    expect(html).toContain('data-channel="C0APPROVALS">#vidops-approvals</a>');
    expect(html).toContain('<span class="mention">@support-leads</span> <span class="mention">@here</span>');
  });

  it('a date is written for the reader, with its fallback until the page formats it', () => {
    expect(
      mrkdwnToHtml('asked <!date^1763730000^{date_short_pretty} {time}|2025-11-21 13:00 UTC>'),
    ).toContain(
      '<time datetime="2025-11-21T13:00:00.000Z" data-format="{date_short_pretty} {time}">2025-11-21 13:00 UTC</time>',
    );
  });

  it('the emoji vidops sends are drawn; unknown short codes stay as text', () => {
    expect(inner(mrkdwnToHtml(':white_check_mark: done :hourglass_flowing_sand: :not_an_emoji:'))).toBe(
      '✅ done ⏳ :not_an_emoji:',
    );
  });

  it('Persian text reads right to left, with IDs and numbers inside it left to right', () => {
    const html = mrkdwnToHtml('پوشه `6710a0000000000000000102` با ۳ فایل و 12 ویدیو');
    expect(html.startsWith('<div class="mrkdwn" dir="rtl">')).toBe(true);
    expect(html).toContain('<code dir="ltr">6710a0000000000000000102</code>');
    expect(html).toContain('<bdi dir="ltr">12</bdi>');
  });

  it('a Persian message that starts with an emoji, a mention or an ID still reads right to left', () => {
    for (const text of [
      ':white_check_mark: درخواست انجام شد',
      '<@U0LEILA> درخواست را تأیید کرد',
      '\u2068`R-9NDD344Y`\u2069 در انتظار تأیید است',
      'R-9NDD344Y در انتظار تأیید است',
    ]) {
      expect([text, mrkdwnToHtml(text, names).slice(0, 30)]).toEqual([
        text,
        '<div class="mrkdwn" dir="rtl">',
      ]);
    }
    expect(mrkdwnToHtml('`R-9NDD344Y` :x: 12')).toMatch(/^<div class="mrkdwn" dir="auto">/);
  });

  it('an English line inside a Persian message runs left to right on its own', () => {
    expect(inner(mrkdwnToHtml('درخواست رد شد\nReason: duplicate\nپایان'))).toBe(
      'درخواست رد شد<br><div dir="ltr">Reason: duplicate</div>پایان',
    );
  });

  it('bold, italics and code right next to isolate marks are still drawn', () => {
    expect(
      inner(
        mrkdwnToHtml('شماره‌ی \u2068*R-12*\u2069 و \u2068_x_\u2069 و \u2068`R-13`\u2069 و \u2068~y~\u2069'),
      ),
    ).toBe(
      'شماره‌ی \u2068<strong><bdi dir="ltr">R-12</bdi></strong>\u2069 و \u2068<em>x</em>\u2069 و \u2068<code dir="ltr">R-13</code>\u2069 و \u2068<del>y</del>\u2069',
    );
  });

  it('code blocks and quotes', () => {
    expect(inner(mrkdwnToHtml('```{"a":1}```'))).toBe('<pre dir="ltr">{&quot;a&quot;:1}</pre>');
    expect(inner(mrkdwnToHtml('> quoted\nplain'))).toBe('<blockquote dir="auto">quoted</blockquote>plain');
  });
});

describe('text from outside never becomes markup', () => {
  it('tags, attributes and script links are shown as text', () => {
    const hostile = 'Title <img src=x onerror=alert(1)> "quoted" &lt;b&gt; <javascript:alert(1)|click me>';
    const html = mrkdwnToHtml(hostile);
    expect(html).not.toMatch(/<img|<b>|href="javascript/);
    expect(html).toContain('&lt;b&gt;');
    expect(textToHtml('<script>alert(1)</script>')).toBe(
      '&lt;script&gt;alert(<bdi dir="ltr">1</bdi>)&lt;/script&gt;',
    );
  });

  it("a button's value and label cannot break out of their attributes", () => {
    const html = blocksToHtml(
      [
        {
          type: 'actions',
          block_id: 'b"><script>',
          elements: [
            {
              type: 'button',
              action_id: 'a',
              value: '"><script>alert(1)</script>',
              text: { type: 'plain_text', text: '<b>Go</b>' },
            },
          ],
        },
      ],
      ctx,
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('data-value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('&lt;b&gt;Go&lt;/b&gt;');
  });
});

describe('Block Kit as the page shows it', () => {
  it('a button with a confirm dialog carries its action and writes the dialog beside it', () => {
    const html = blocksToHtml(
      [
        {
          type: 'actions',
          block_id: 'request_actions:R-1',
          elements: [
            {
              type: 'button',
              action_id: 'request_approve',
              value: 'R-1',
              style: 'primary',
              text: { type: 'plain_text', text: 'Approve' },
              confirm: {
                title: { type: 'plain_text', text: 'Approve R-1?' },
                text: { type: 'mrkdwn', text: 'It runs *at once*.' },
                confirm: { type: 'plain_text', text: 'Approve' },
                deny: { type: 'plain_text', text: 'Not yet' },
              },
            },
          ],
        },
      ],
      ctx,
    );
    expect(html).toContain(
      'data-action-id="request_approve" data-block-id="request_actions:R-1" data-value="R-1"',
    );
    expect(html).toContain('<div class="confirm" hidden data-style="">');
    expect(html).toContain('<strong>at once</strong>');
    expect(html).toContain('<div class="confirm-no">Not yet</div>');
  });

  it('a Persian modal field, header and context run right to left; English ones left to right', () => {
    const html = blocksToHtml(
      [
        { type: 'header', text: { type: 'plain_text', text: 'حذف پوشه' } },
        {
          type: 'input',
          block_id: 'reason',
          label: { type: 'plain_text', text: 'دلیل' },
          hint: { type: 'plain_text', text: 'در گزارش ممیزی می‌ماند' },
          element: { type: 'plain_text_input', action_id: 'value' },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'Requested by <@U0LEILA>' }] },
      ],
      ctx,
    );
    expect(html).toContain(
      '<div class="block header" data-block-id="" dir="rtl"><h3><span dir="rtl">حذف پوشه</span></h3>',
    );
    expect(html).toContain('<div class="block input" data-block-id="reason" dir="rtl">');
    expect(html).toContain('<div class="block context" data-block-id="" dir="ltr">');
  });

  it('every input vidops uses becomes a form field named by block and action, prefilled', () => {
    const option = (value: string) => ({ text: { type: 'plain_text', text: value.toUpperCase() }, value });
    const input = (blockId: string, element: JsonObject): JsonObject => ({
      type: 'input',
      block_id: blockId,
      label: { type: 'plain_text', text: blockId },
      element,
    });
    const html = blocksToHtml(
      [
        input('title', {
          type: 'plain_text_input',
          action_id: 'value',
          initial_value: 'پادکست',
          max_length: 250,
        }),
        input('speed', {
          type: 'number_input',
          action_id: 'value',
          is_decimal_allowed: true,
          initial_value: '0.5',
        }),
        input('colour', {
          type: 'static_select',
          action_id: 'value',
          options: [option('red'), option('blue')],
          initial_option: option('blue'),
        }),
        input('flags', {
          type: 'checkboxes',
          action_id: 'value',
          options: [option('a'), option('b')],
          initial_options: [option('b')],
        }),
        input('mode', { type: 'radio_buttons', action_id: 'value', options: [option('x'), option('y')] }),
        input('cover', { type: 'file_input', action_id: 'value', filetypes: ['png', 'jpg'], max_files: 1 }),
      ],
      ctx,
    );
    expect(html).toContain(
      '<input type="text" dir="auto" id="field-title" name="title/value" data-kind="plain_text_input"',
    );
    expect(html).toContain('value="پادکست"');
    expect(html).toContain('type="number" dir="ltr" step="any"');
    expect(html).toContain('<option value="blue" selected>BLUE</option>');
    expect(html).toContain(
      'type="checkbox" name="flags/value" data-kind="checkboxes" data-block-id="flags" data-action-id="value" value="b" checked',
    );
    expect(html).toContain('type="radio" name="mode/value"');
    expect(html).toContain(
      'type="file" id="field-cover" name="cover/value" data-kind="file_input" data-block-id="cover" data-action-id="value" accept=".png,.jpg">',
    );
    expect(html.match(/data-error-for=/g)).toHaveLength(6);
  });
});

/**
 * The direction the bidi algorithm gives the FSI at `at` (UAX #9, P2–P3): that of its first letter
 * outside nested isolates; left to right when it has none.
 */
function isolateDirection(text: string, at: number): 'ltr' | 'rtl' {
  let depth = 0;
  for (const c of text.slice(at + 1)) {
    if (/[\u2066-\u2068]/.test(c)) depth += 1;
    else if (c === '\u2069') {
      if (depth === 0) break;
      depth -= 1;
    } else if (depth === 0 && /\p{L}/u.test(c)) return /\p{Script=Arabic}/u.test(c) ? 'rtl' : 'ltr';
  }
  return 'ltr';
}

// Issue 35, defect 11: in the playground a Persian `off → on` read as `on → off`: each value was
// isolated, the arrow between them not, so the right-to-left line swapped them.
describe('a settings change in a Persian approval message', () => {
  const change = requestWith({
    id: 'R-7QK2M9XD',
    operation: 'protect.set',
    params: { changes: { preventZoom: true } },
    target: 'protection settings',
    preview: { kind: 'protection', rows: [{ field: 'preventZoom', before: false, after: true }] },
  });

  it('is drawn before → after, in Persian words, inside one isolate that runs left to right', () => {
    const message = approvalMessage(change, VIEW_NOW, langFor('fa'));
    const html = blocksToHtml(JSON.parse(JSON.stringify(message.blocks)), ctx);
    expect(html).toContain('<strong>روشن</strong>');
    const text = html.replace(/<[^>]*>/g, '');
    const start = text.indexOf('\u2068\u2068خاموش\u2069 → \u2068روشن\u2069\u2069');
    expect(start).toBeGreaterThan(-1);
    expect(isolateDirection(text, start)).toBe('ltr');
    expect(text).not.toMatch(/\boff\b|\bon\b/);
  });
});
