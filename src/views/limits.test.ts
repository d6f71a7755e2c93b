import type { Button, KnownBlock, ModalView } from '@slack/types';
import {
  assertBlockKitLimits,
  BLOCK_KIT_LIMITS,
  BlockKitLimitError,
  checkBlockKitLimits,
  findBlockKitProblems,
  truncate,
} from './limits.js';

const plain = (text: string) => ({ type: 'plain_text' as const, text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn' as const, text });
const x = (n: number) => 'x'.repeat(n);
const option = (text: string, value = 'v') => ({ text: plain(text), value });
const options = (n: number) => Array.from({ length: n }, (_, i) => option(`Option ${i}`, `v${i}`));

function caught(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

function button(overrides: Partial<Button> = {}): Button {
  return { type: 'button', action_id: 'approve', text: plain('Approve'), value: 'req-1', ...overrides };
}

function modal(overrides: Record<string, unknown> = {}) {
  return {
    type: 'modal',
    callback_id: 'unblock',
    title: plain('Unblock viewer'),
    submit: plain('Unblock'),
    close: plain('Cancel'),
    private_metadata: '{"requestId":"r1"}',
    blocks: [
      {
        type: 'input',
        block_id: 'mobile',
        label: plain('Mobile number'),
        element: { type: 'plain_text_input', action_id: 'value', max_length: 20 },
      },
    ],
    ...overrides,
  };
}

describe('a message that a lead reads in the approval channel', () => {
  const approval = [
    { type: 'header', text: plain('Approval needed: folder delete') },
    {
      type: 'section',
      block_id: 'summary',
      text: mrkdwn('*Requested by* <@U1>\n*Target* folder `671018d0403eba579a6f90e2`'),
      fields: [mrkdwn('*Reason*\nduplicate'), mrkdwn('*Expires*\nin 24 h')],
    },
    { type: 'context', elements: [mrkdwn('request r1 · hash 3f2a9c01')] },
    {
      type: 'actions',
      block_id: 'decide',
      elements: [
        button({
          style: 'primary',
          confirm: {
            title: plain('Approve?'),
            text: mrkdwn('Delete it'),
            confirm: plain('Yes'),
            deny: plain('No'),
          },
        }),
        button({ action_id: 'reject', text: plain('Reject') }),
      ],
    },
  ] satisfies KnownBlock[];

  it('passes when every limit is kept', () => {
    expect(checkBlockKitLimits({ text: 'Approval needed', blocks: approval }, 'message')).toEqual([]);
    expect(() =>
      assertBlockKitLimits({ text: 'Approval needed', blocks: approval }, 'message'),
    ).not.toThrow();
  });

  it('is refused with every broken limit named by its path', () => {
    const blocks = [
      approval[0],
      { ...approval[1], text: mrkdwn(x(3105)) },
      approval[2],
      { ...approval[3], elements: [button({ text: plain(x(76)) })] },
    ];
    expect(checkBlockKitLimits({ text: 'Approval', blocks }, 'message')).toEqual([
      'blocks[1].text.text: 3105 chars > 3000',
      'blocks[3].elements[0].text.text: 76 chars > 75',
    ]);
    const thrown = caught(() => assertBlockKitLimits({ text: 'Approval', blocks }, 'message'));
    if (!(thrown instanceof BlockKitLimitError))
      throw new Error(`expected a BlockKitLimitError, got ${thrown}`);
    expect(thrown.problems).toHaveLength(2);
    expect(thrown.message).toContain('blocks[1].text.text: 3105 chars > 3000');
  });
});

// Each row: what a view builder got wrong, the blocks, and the problem line expected.
const messageCases: [string, unknown[], string][] = [
  ['51 blocks', Array.from({ length: 51 }, () => ({ type: 'divider' })), 'blocks: 51 items > 50'],
  ['an empty section text', [{ type: 'section', text: mrkdwn('') }], 'blocks[0].text.text: 0 chars < 1'],
  [
    'a section with neither text nor fields',
    [{ type: 'section' }],
    'blocks[0]: section needs `text` or `fields`',
  ],
  [
    '11 section fields',
    [{ type: 'section', fields: Array.from({ length: 11 }, () => mrkdwn('f')) }],
    'blocks[0].fields: 11 items > 10',
  ],
  [
    'a section field over 2000',
    [{ type: 'section', fields: [mrkdwn(x(2001))] }],
    'blocks[0].fields[0].text: 2001 chars > 2000',
  ],
  ['a header over 150', [{ type: 'header', text: plain(x(151)) }], 'blocks[0].text.text: 151 chars > 150'],
  ['a mrkdwn header', [{ type: 'header', text: mrkdwn('Hi') }], 'blocks[0].text.type: must be plain_text'],
  ['a block_id over 255', [{ type: 'divider', block_id: x(256) }], 'blocks[0].block_id: 256 chars > 255'],
  [
    'a duplicate block_id',
    [
      { type: 'divider', block_id: 'same' },
      { type: 'divider', block_id: 'same' },
    ],
    'blocks[1].block_id: duplicate "same"',
  ],
  [
    'an action_id over 255',
    [{ type: 'actions', elements: [button({ action_id: x(256) })] }],
    'blocks[0].elements[0].action_id: 256 chars > 255',
  ],
  [
    'a duplicate action_id in one block',
    [{ type: 'actions', elements: [button(), button()] }],
    'blocks[0].elements[1].action_id: duplicate "approve" in block',
  ],
  [
    '11 context elements',
    [{ type: 'context', elements: Array.from({ length: 11 }, () => mrkdwn('c')) }],
    'blocks[0].elements: 11 items > 10',
  ],
  [
    '26 buttons in one actions block',
    [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button({ action_id: `b${i}` })) }],
    'blocks[0].elements: 26 items > 25',
  ],
  [
    'a button value over 2000',
    [{ type: 'actions', elements: [button({ value: x(2001) })] }],
    'blocks[0].elements[0].value: 2001 chars > 2000',
  ],
  [
    'a button url over 3000',
    [{ type: 'actions', elements: [button({ url: `https://e.com/${x(2990)}` })] }],
    'blocks[0].elements[0].url: 3004 chars > 3000',
  ],
  [
    '101 select options',
    [{ type: 'actions', elements: [{ type: 'static_select', action_id: 's', options: options(101) }] }],
    'blocks[0].elements[0].options: 101 items > 100',
  ],
  [
    '101 option groups',
    [
      {
        type: 'actions',
        elements: [
          {
            type: 'static_select',
            action_id: 's',
            option_groups: Array.from({ length: 101 }, () => ({ label: plain('g'), options: options(1) })),
          },
        ],
      },
    ],
    'blocks[0].elements[0].option_groups: 101 items > 100',
  ],
  [
    'an option text over 75',
    [{ type: 'actions', elements: [{ type: 'static_select', action_id: 's', options: [option(x(76))] }] }],
    'blocks[0].elements[0].options[0].text.text: 76 chars > 75',
  ],
  [
    'an option description over 75',
    [
      {
        type: 'actions',
        elements: [
          { type: 'radio_buttons', action_id: 'r', options: [{ ...option('a'), description: plain(x(76)) }] },
        ],
      },
    ],
    'blocks[0].elements[0].options[0].description.text: 76 chars > 75',
  ],
  [
    'an option value over 150',
    [
      {
        type: 'actions',
        elements: [{ type: 'static_select', action_id: 's', options: [option('a', x(151))] }],
      },
    ],
    'blocks[0].elements[0].options[0].value: 151 chars > 150',
  ],
  [
    '11 checkboxes',
    [{ type: 'actions', elements: [{ type: 'checkboxes', action_id: 'c', options: options(11) }] }],
    'blocks[0].elements[0].options: 11 items > 10',
  ],
  [
    '11 radio buttons',
    [{ type: 'actions', elements: [{ type: 'radio_buttons', action_id: 'r', options: options(11) }] }],
    'blocks[0].elements[0].options: 11 items > 10',
  ],
  [
    '6 overflow options',
    [
      {
        type: 'section',
        text: mrkdwn('t'),
        accessory: { type: 'overflow', action_id: 'o', options: options(6) },
      },
    ],
    'blocks[0].accessory.options: 6 items > 5',
  ],
  [
    'a confirm title over 100',
    [
      {
        type: 'actions',
        elements: [
          button({
            confirm: { title: plain(x(101)), text: plain('t'), confirm: plain('Y'), deny: plain('N') },
          }),
        ],
      },
    ],
    'blocks[0].elements[0].confirm.title.text: 101 chars > 100',
  ],
  [
    'a confirm text over 300',
    [
      {
        type: 'actions',
        elements: [
          button({
            confirm: { title: plain('t'), text: mrkdwn(x(301)), confirm: plain('Y'), deny: plain('N') },
          }),
        ],
      },
    ],
    'blocks[0].elements[0].confirm.text.text: 301 chars > 300',
  ],
  [
    'a confirm button over 30',
    [
      {
        type: 'actions',
        elements: [
          button({
            confirm: { title: plain('t'), text: plain('t'), confirm: plain(x(31)), deny: plain('N') },
          }),
        ],
      },
    ],
    'blocks[0].elements[0].confirm.confirm.text: 31 chars > 30',
  ],
  [
    'a deny button over 30',
    [
      {
        type: 'actions',
        elements: [
          button({
            confirm: { title: plain('t'), text: plain('t'), confirm: plain('Y'), deny: plain(x(31)) },
          }),
        ],
      },
    ],
    'blocks[0].elements[0].confirm.deny.text: 31 chars > 30',
  ],
  [
    'a placeholder over 150',
    [
      {
        type: 'actions',
        elements: [{ type: 'users_select', action_id: 'u', placeholder: plain(x(151)) }],
      },
    ],
    'blocks[0].elements[0].placeholder.text: 151 chars > 150',
  ],
  [
    'an image alt_text over 2000',
    [{ type: 'image', image_url: 'https://e.com/a.png', alt_text: x(2001) }],
    'blocks[0].alt_text: 2001 chars > 2000',
  ],
  [
    'a context image alt_text over 2000',
    [{ type: 'context', elements: [{ type: 'image', image_url: 'https://e.com/a.png', alt_text: x(2001) }] }],
    'blocks[0].elements[0].alt_text: 2001 chars > 2000',
  ],
  ['a block without type', [{ text: mrkdwn('t') }], 'blocks[0]: must be a block object with a `type`'],
];

describe('message limits', () => {
  it.each(messageCases)('a message with %s is refused', (_what, blocks, problem) => {
    expect(checkBlockKitLimits({ text: 'fallback', blocks }, 'message')).toEqual([problem]);
    expect(findBlockKitProblems({ text: 'fallback', blocks }, 'message')[0]?.code).toBe('invalid_blocks');
  });

  it('refuses a message text of 40,000 chars or more as msg_too_long', () => {
    expect(findBlockKitProblems({ text: x(40_000) }, 'message')).toEqual([
      { path: 'text', message: '40000 chars, must be under 40000', code: 'msg_too_long' },
    ]);
    expect(checkBlockKitLimits({ text: x(39_999) }, 'message')).toEqual([]);
  });

  it('refuses blocks whose total text is too long as msg_blocks_too_long', () => {
    const blocks = Array.from({ length: 5 }, () => ({ type: 'section', text: mrkdwn(x(2500)) }));
    expect(findBlockKitProblems({ text: 'long list', blocks }, 'message')).toEqual([
      { path: 'blocks', message: '12500 chars of text in total > 12000', code: 'msg_blocks_too_long' },
    ]);
    expect(checkBlockKitLimits({ text: 'list', blocks: blocks.slice(0, 4) }, 'message')).toEqual([]);
  });

  it('reports a block that is not an object instead of crashing', () => {
    expect(checkBlockKitLimits({ text: 't', blocks: ['divider', null] }, 'message')).toEqual([
      'blocks[0]: must be a block object with a `type`',
      'blocks[1]: must be a block object with a `type`',
    ]);
  });
});

const viewCases: [string, Record<string, unknown>, string][] = [
  [
    '101 blocks',
    { blocks: Array.from({ length: 101 }, () => ({ type: 'divider' })) },
    'view.blocks: 101 items > 100',
  ],
  ['a title over 24', { title: plain(x(25)) }, 'view.title.text: 25 chars > 24'],
  ['a submit over 24', { submit: plain(x(25)) }, 'view.submit.text: 25 chars > 24'],
  ['a close over 24', { close: plain(x(25)) }, 'view.close.text: 25 chars > 24'],
  ['no title', { title: undefined }, 'view.title: is required'],
  ['private_metadata over 3000', { private_metadata: x(3001) }, 'view.private_metadata: 3001 chars > 3000'],
  ['a callback_id over 255', { callback_id: x(256) }, 'view.callback_id: 256 chars > 255'],
  ['an external_id over 255', { external_id: x(256) }, 'view.external_id: 256 chars > 255'],
  [
    'an input block but no submit',
    { submit: undefined },
    'view.submit: is required when the modal has input blocks',
  ],
  [
    'an input label over 2000',
    {
      blocks: [
        { type: 'input', label: plain(x(2001)), element: { type: 'plain_text_input', action_id: 'v' } },
      ],
    },
    'view.blocks[0].label.text: 2001 chars > 2000',
  ],
  [
    'an input hint over 2000',
    {
      blocks: [
        {
          type: 'input',
          label: plain('l'),
          hint: plain(x(2001)),
          element: { type: 'plain_text_input', action_id: 'v' },
        },
      ],
    },
    'view.blocks[0].hint.text: 2001 chars > 2000',
  ],
  [
    'a max_length of 3001',
    {
      blocks: [
        {
          type: 'input',
          label: plain('l'),
          element: { type: 'plain_text_input', action_id: 'v', max_length: 3001 },
        },
      ],
    },
    'view.blocks[0].element.max_length: 3001 is not within 1..3000',
  ],
  [
    'a max_length of 0',
    {
      blocks: [
        {
          type: 'input',
          label: plain('l'),
          element: { type: 'plain_text_input', action_id: 'v', max_length: 0 },
        },
      ],
    },
    'view.blocks[0].element.max_length: 0 is not within 1..3000',
  ],
  [
    'a min_length of 3001',
    {
      blocks: [
        {
          type: 'input',
          label: plain('l'),
          element: { type: 'plain_text_input', action_id: 'v', min_length: 3001 },
        },
      ],
    },
    'view.blocks[0].element.min_length: 3001 is not within 0..3000',
  ],
  ['a home view opened as a modal', { type: 'home' }, 'view.type: must be "modal", got "home"'],
];

describe('modal limits', () => {
  it('passes a well-formed modal typed with @slack/types', () => {
    const view = modal() satisfies Record<string, unknown>;
    const typed: ModalView = {
      type: 'modal',
      title: plain('Unblock viewer'),
      submit: plain('Unblock'),
      blocks: [
        { type: 'input', label: plain('Mobile'), element: { type: 'plain_text_input', action_id: 'v' } },
      ],
    };
    expect(checkBlockKitLimits({ view }, 'modal')).toEqual([]);
    expect(checkBlockKitLimits({ view: typed }, 'modal')).toEqual([]);
  });

  it.each(viewCases)('a modal with %s is refused', (_what, overrides, problem) => {
    expect(checkBlockKitLimits({ view: modal(overrides) }, 'modal')).toEqual([problem]);
    expect(findBlockKitProblems({ view: modal(overrides) }, 'modal')[0]?.code).toBe('invalid_arguments');
  });

  it('refuses a view of 250 kB or more', () => {
    const blocks = Array.from({ length: 100 }, (_, i) => ({
      type: 'section',
      block_id: `b${i}`,
      text: mrkdwn(x(2600)),
    }));
    expect(checkBlockKitLimits({ view: modal({ blocks, submit: undefined }) }, 'modal')).toEqual([
      expect.stringMatching(/^view: view is 26\d{4} bytes of JSON, must be under 250000$/),
    ]);
  });
});

describe('Home tab limits', () => {
  it('allows 100 blocks and no title', () => {
    const view = { type: 'home', blocks: Array.from({ length: 100 }, () => ({ type: 'divider' })) };
    expect(checkBlockKitLimits({ view }, 'home')).toEqual([]);
    expect(
      checkBlockKitLimits({ view: { ...view, blocks: [...view.blocks, { type: 'divider' }] } }, 'home'),
    ).toEqual(['view.blocks: 101 items > 100']);
  });
});

describe('truncate', () => {
  it.each([
    ['short text is kept', 'hello', 10, 'hello'],
    ['text of exactly max is kept', 'hello', 5, 'hello'],
    ['long text ends with an ellipsis', 'hello world', 8, 'hello w…'],
    ['an emoji at the cut is not split', 'ab😀cd', 4, 'ab…'],
    ['an emoji before the cut is kept whole', 'ab😀cd', 5, 'ab😀…'],
    ['max 1 gives only the ellipsis', 'hello', 1, '…'],
    ['max 0 gives nothing', 'hello', 0, ''],
    [
      'an isolate cut open is closed before the ellipsis',
      'ab \u2068cdefgh\u2069 R-1',
      8,
      'ab \u2068cd\u2069…',
    ],
    [
      'two isolates cut open are both closed',
      '\u2068a \u2068bcdefgh\u2069\u2069',
      7,
      '\u2068a \u2068\u2069\u2069…',
    ],
    ['an isolate closed before the cut needs nothing', '\u2068ab\u2069 cdefgh', 7, '\u2068ab\u2069 c…'],
  ])('%s', (_what, text, max, expected) => {
    const out = truncate(text, max);
    expect(out).toBe(expected);
    expect(out.length).toBeLessThanOrEqual(max);
  });

  it('keeps a truncated section within the section limit', () => {
    const text = truncate('۰۹۱۲'.repeat(1000), BLOCK_KIT_LIMITS.sectionText);
    expect(text).toHaveLength(3000);
    expect(checkBlockKitLimits({ blocks: [{ type: 'section', text: mrkdwn(text) }] }, 'message')).toEqual([]);
  });
});
