import { explainCode, normalizeErrorCode, PLAYER_ERROR_CODES } from './player-errors.js';

describe('agent asks what a player error code means', () => {
  it.each([
    ['9910', '9910', 'unblock', 'blocked for suspicious behaviour'],
    ['9103', '9103', 'retry', 'Processing of the file failed'],
    ['9101', '9101', 'retry', 'Conversion of the file failed'],
    ['9999', '9999', null, 'Unexpected error'],
    ['9199', '9199', null, 'link has expired'],
    ['9196', '9196', null, 'higher quality'],
    ['9195', '9195', null, 'VPN'],
    ['9150', '9150', null, 'Another device'],
    ['9104', '9104', null, 'still being processed'],
    ['9105', '9105', null, 'still being processed'],
    ['9102', '9102', null, 'suspended'],
    ['2001', '2001', null, 'browser extension'],
    ['2005', '2005', null, 'browser extension'],
    ['2009', '2009', null, 'browser extension'],
    ['1466', '1466', null, 'zoom'],
    ['1457', '1457', null, 'link is not valid'],
    ['1014', '1014', null, 'connection was lost'],
    ['8001', '8001', null, 'network or browser'],
    ['8005', '8005', null, 'network or browser'],
    ['7443', '7443', null, 'download extension'],
    ['Persian digits', '9910', 'unblock', 'blocked'],
    ['#9910', '9910', 'unblock', 'blocked'],
    ['E9103', '9103', 'retry', 'Processing'],
    ['error 9910', '9910', 'unblock', 'blocked'],
    ['  9199  ', '9199', null, 'expired'],
  ])('%s', (raw, code, action, meaningPart) => {
    const input = raw === 'Persian digits' ? '۹۹۱۰' : raw;
    const explained = explainCode(input);
    expect(explained?.code).toBe(code);
    expect(explained?.action).toBe(action);
    expect(explained?.meaning).toContain(meaningPart);
    expect(explained?.fix.length).toBeGreaterThan(0);
  });

  it.each(['2000', '2010', '8000', '8006', '9106', '1234', 'abc', '', '99 10'])(
    '%s is not a known code',
    (raw) => {
      expect(explainCode(raw)).toBeNull();
    },
  );

  it.each([
    ['۰۹۹۱۰', '9910'],
    ['Error code: 1466', '1466'],
    ['9910a', null],
    ['1234567', null],
  ])('code %s reads as %s', (raw, code) => {
    expect(normalizeErrorCode(raw)).toBe(code);
  });

  it('lists every entry of the table once, ranges as ranges', () => {
    expect(PLAYER_ERROR_CODES.map((e) => e.codes)).toEqual([
      '9999',
      '9910',
      '9199',
      '9196',
      '9195',
      '9150',
      '9104, 9105',
      '9103',
      '9102',
      '9101',
      '2001-2009',
      '1466',
      '1457',
      '1014',
      '8001-8005',
      '7443',
    ]);
    const ranges = PLAYER_ERROR_CODES.map((e) => [e.from, e.to]);
    for (const [from, to] of ranges) expect(from).toBeLessThanOrEqual(to ?? 0);
  });
});
