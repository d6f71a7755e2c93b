import { createCoverFetcher, imageType } from './cover.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('cover images', () => {
  test.each([
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), 'image/png'],
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0), 'image/jpeg'],
    ['GIF', bytes(0x47, 0x49, 0x46, 0x38, 0x39, 0x61), 'image/gif'],
    ['WebP', bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50), 'image/webp'],
    ['a text file named .png', new TextEncoder().encode('hello'), null],
    ['a RIFF file that is no WebP', bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x45), null],
  ])('%s is read as %s', (_name, data, type) => {
    expect(imageType(data)).toBe(type);
  });

  test('a cover uploaded in Slack is not fetched from the CLI', async () => {
    const fetch = createCoverFetcher(async () => {
      throw new Error('must not read');
    });
    await expect(
      fetch({
        slackFileId: 'F0123ABC',
        filename: 'c.png',
        contentType: 'image/png',
        url: 'https://files.slack.com/files-pri/T1-F0123ABC/c.png',
      }),
    ).rejects.toThrow('approve it in Slack');
  });
});
