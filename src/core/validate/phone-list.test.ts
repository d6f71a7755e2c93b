import { english } from '../../i18n/said.js';
import { say } from '../said.js';
import { parseNumberList } from './phone-list.js';

const read = (text: string) => parseNumberList(text, 'IR');

describe('agent pastes a list of numbers to unblock', () => {
  it('reads one number per line in every accepted form, merging the same number written twice', () => {
    const list = read('09123456789\n+98 912 345 6789\n۰۹۳۵۱۱۱۲۲۲۲\n0098-935-111-2222\n  \n0912 000 1111');
    expect(list.numbers.map((n) => [n.param, n.lines])).toEqual([
      ['09123456789', [1, 2]],
      ['09351112222', [3, 4]],
      ['09120001111', [6]],
    ]);
    expect(list.duplicates).toBe(2);
    expect(list.refused).toEqual([]);
  });

  it.each([
    ['commas', '09123456789,09351112222, 09120001111'],
    ['Persian commas', '۰۹۱۲۳۴۵۶۷۸۹،۰۹۳۵۱۱۱۲۲۲۲ ، ۰۹۱۲۰۰۰۱۱۱۱'],
    ['spaces between numbers with spaces inside', '0912 345 6789 0935 111 2222 +98 912 000 1111'],
    ['semicolons and tabs (a spreadsheet row)', '09123456789;09351112222\t09120001111'],
  ])('splits numbers separated by %s', (_, text) => {
    expect(read(text).numbers.map((n) => n.param)).toEqual(['09123456789', '09351112222', '09120001111']);
  });

  it('lists each invalid entry with its line and reason, and skips words that are not numbers', () => {
    const list = read('name, mobile\nAli 09123456789\n0912 345 67\n021 8888 7777\n\nthanks');
    expect(list.numbers.map((n) => n.param)).toEqual(['09123456789']);
    expect(list.refused.map((r) => [r.line, r.read])).toEqual([
      [1, 'name, mobile'],
      [3, '0912 345 67'],
      [4, '021 8888 7777'],
      [6, 'thanks'],
    ]);
    expect(english(list.refused[0]?.said ?? say.listNoNumber())).toBe('no number on this line');
    expect(english(list.refused[2]?.said ?? say.listNoNumber())).toMatch(/landline/);
  });

  it('masks what it shows and keeps numbers of other regions out unless accepted', () => {
    const home = read('+63 917 123 4567\n09123456789');
    expect(home.numbers.map((n) => n.masked)).toEqual(['0912***6789']);
    expect(home.refused.map((r) => r.line)).toEqual([1]);
    expect(read('+63 917 123 4567 09123456789').numbers.map((n) => n.param)).toEqual(['09123456789']);
    const both = parseNumberList('+63 917 123 4567', 'IR', { regions: ['IR', 'PH'] });
    expect(both.numbers.map((n) => n.param)).toEqual(['+639171234567']);
  });

  it('reads 500 numbers', () => {
    const text = Array.from({ length: 500 }, (_, i) => `0912${String(i).padStart(7, '0')}`).join('\n');
    expect(read(text).numbers).toHaveLength(500);
  });
});
