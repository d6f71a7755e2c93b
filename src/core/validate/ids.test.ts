import { english } from '../../i18n/said.js';
import { parseResourceId } from './ids.js';

describe('agent gives a folder, file or playlist ID', () => {
  it.each([
    ['an ObjectId', '671018d0403eba579a6f90e2', 'file', '671018d0403eba579a6f90e2'],
    ['surrounding spaces', '  671018d0403eba579a6f90e2 ', 'folder', '671018d0403eba579a6f90e2'],
    ['Slack code formatting', '`671018d0403eba579a6f90e2`', 'playlist', '671018d0403eba579a6f90e2'],
    ['bold and quotes', '*"671018d0403eba579a6f90e2"*', 'file', '671018d0403eba579a6f90e2'],
    ['upper-case hex', '671018D0403EBA579A6F90E2', 'file', '671018D0403EBA579A6F90E2'],
    ['Persian digits', '۶۷۱۰۱۸d0403eba579a6f90e2', 'file', '671018d0403eba579a6f90e2'],
  ] as const)('accepts %s without a warning', (_, raw, kind, id) => {
    expect(parseResourceId(raw, kind)).toEqual({ ok: true, id, warning: null });
  });

  it.each([
    ['file', 'abc123', 'file ID abc123 is not 24 hex digits'],
    ['folder', '671018d0403eba579a6f90e', 'folder ID 671018d0403eba579a6f90e is not 24 hex digits'],
    ['playlist', '671018d0403eba579a6f90zz', 'playlist ID 671018d0403eba579a6f90zz is not 24 hex digits'],
  ] as const)('accepts a %s ID of another shape, with a warning', (kind, raw, warningStart) => {
    const result = parseResourceId(raw, kind);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.id).toBe(raw);
      expect(result.warning !== null && english(result.warning).startsWith(warningStart)).toBe(true);
    }
  });

  it.each([
    ['empty', '', 'file', 'no file ID was given'],
    ['only formatting', ' `` ', 'folder', 'no folder ID was given'],
    [
      'whitespace inside',
      '671018d0 403eba579a6f90e2',
      'file',
      'the file ID "671018d0 403eba579a6f90e2" has spaces inside; give one ID',
    ],
    [
      'a slash',
      'bucket/671018d0403eba579a6f90e2',
      'folder',
      'the folder ID "bucket/671018d0403eba579a6f90e2" has a slash; give the ID alone, not a path or link',
    ],
    ['a control character', 'abc\u0007def', 'playlist', 'the playlist ID has control characters'],
    ['two dots', '..', 'file', '".." is not a file ID: an ID is never made only of dots'],
    ['one dot', '.', 'folder', '"." is not a folder ID: an ID is never made only of dots'],
    [
      'three dots in code marks',
      '`...`',
      'playlist',
      '"..." is not a playlist ID: an ID is never made only of dots',
    ],
  ] as const)('refuses %s', (_, raw, kind, reason) => {
    const read = parseResourceId(raw, kind);
    expect(read.ok ? null : english(read.said)).toBe(reason);
  });
});
