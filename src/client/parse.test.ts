import type { JsonValue } from '../core/json.js';
import { isMissingRoute } from './errors.js';
import { parseFile } from './files.js';
import { parseFolder } from './folders.js';
import { listOf, recordOf } from './parse.js';
import { parsePlaylist } from './playlists.js';
import { parseProtectionConfig } from './protection.js';
import { parseViewer } from './viewers.js';
import { parseWhitelist } from './whitelist.js';

/** Permissive reading of answers whose shapes the spec does not show. */

describe('answers in the shapes a service may choose', () => {
  test.each<[string, JsonValue, string[] | null]>([
    ['plain object', { allowedDNS: ['1.1.1.1', '2.2.2.2'] }, ['1.1.1.1', '2.2.2.2']],
    ['data envelope', { data: { allowedDNS: ['1.1.1.1'] }, message: 'ok' }, ['1.1.1.1']],
    ['bare list', ['1.1.1.1'], ['1.1.1.1']],
    ['data list', { data: ['1.1.1.1'] }, ['1.1.1.1']],
    ['null list means empty', { allowedDNS: null }, []],
    ['entries as objects', { whitelist: [{ ip: '1.1.1.1' }, { address: '::1' }] }, ['1.1.1.1', '::1']],
    ['one unknown list', { result: ['3.3.3.3'], ok: true }, ['3.3.3.3']],
    ['no list at all', { message: 'ok' }, null],
    ['text', 'ok', null],
  ])('whitelist answered as %s', (_shape, body, expected) => {
    expect(parseWhitelist(body)).toEqual(expected);
  });

  test.each<[string, JsonValue, { items: number; total: number | null } | null]>([
    [
      'items + total',
      { items: [{ _id: 'a' }, { _id: 'b' }], total: 7, currentPage: 1 },
      { items: 2, total: 7 },
    ],
    ['docs + totalDocs', { docs: [{ _id: 'a' }], totalDocs: 3 }, { items: 1, total: 3 }],
    ['data list + count', { data: [{ _id: 'a' }], count: 1 }, { items: 1, total: 1 }],
    ['nested envelope', { data: { docs: [{ _id: 'a' }], totalDocs: 9 } }, { items: 1, total: 9 }],
    ['bare list', [{ _id: 'a' }], { items: 1, total: null }],
    ['no list', { message: 'ok' }, null],
  ])('a list answered as %s', (_shape, body, expected) => {
    const list = listOf(body);
    expect(list === null ? null : { items: list.items.length, total: list.total }).toEqual(expected);
  });

  test('a folder with `id`, a file with a bucket object and a playlist with ID-only entries', () => {
    expect(parseFolder(recordOf({ data: { id: 'f1', title: 'Lectures', files: [1, 2, 3] } }))).toEqual({
      id: 'f1',
      title: 'Lectures',
      description: null,
      filesCount: 3,
      raw: { id: 'f1', title: 'Lectures', files: [1, 2, 3] },
    });
    expect(
      parseFile(
        recordOf({ _id: 'x1', title: 'Intro', bucket: { _id: 'b1' }, hlsStatus: 'failed', size: 10 }),
      ),
    ).toMatchObject({ id: 'x1', bucketId: 'b1', hlsStatus: 'failed', raw: { size: 10 } });
    expect(parseFile(recordOf({ message: 'updated' }), 'x2')).toMatchObject({ id: 'x2', hlsStatus: null });
    expect(
      parsePlaylist(recordOf({ _id: 'p1', files: ['a', { _id: 'b', title: 'B' }, { nope: 1 }] })),
    ).toMatchObject({
      id: 'p1',
      files: [{ _id: 'a' }, { _id: 'b', title: 'B' }],
    });
  });

  test('a viewer is read from its mobile, type and block flag', () => {
    expect(parseViewer({ mobile: '09121234567', actionType: 'attacker', status: 'blocked' })).toMatchObject({
      mobileNumber: '09121234567',
      actionType: 'attacker',
      blocked: true,
    });
  });

  test('protection settings keep typed fields and leave the rest in raw only', () => {
    expect(
      parseProtectionConfig({
        speed: 3,
        fontColor: '#FFA500',
        opacity: '0.5',
        preventZoom: 'no',
        player: { offlineMode: true, extra: 1 },
        link: { expireTime: '2h' },
        brandNew: true,
      }),
    ).toEqual({
      speed: 3,
      fontColor: '#ffa500',
      opacity: 0.5,
      player: { offlineMode: true },
      link: { expireTime: '2h' },
    });
  });
});

describe('telling a missing route from a missing record', () => {
  test.each<[number, JsonValue | string | null, boolean]>([
    [405, { message: 'Method Not Allowed' }, true],
    [404, { code: 'ROUTE_NOT_FOUND', message: 'route not found' }, true],
    [404, { code: 'NOT_FOUND', message: 'file x not found' }, false],
    [404, 'Not Found', true],
    [404, null, true],
    [404, { statusCode: 404, message: 'Cannot PATCH /v1/storage/bucket/file/queue/retry' }, true],
    [404, { statusCode: 404, message: 'File not found' }, false],
    [400, { message: 'fileId: required' }, false],
  ])('%i %j → missing route: %p', (status, body, expected) => {
    expect(isMissingRoute(status, body)).toBe(expected);
  });
});
