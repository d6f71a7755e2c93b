/**
 * The few English words the core still writes itself: why the policy asks for an approval
 * (`over the rate limit of 30 per hour`, `the 3rd unblock of …`). The catalog's English side
 * (src/i18n/messages/errors-en.ts) uses them too, so a span or a period reads the same everywhere.
 */

const PERIOD_UNITS: Readonly<Record<string, string>> = { s: 'second', m: 'minute', h: 'hour', d: 'day' };

/** `'1h'` → `'hour'`, `'2h'` → `'2 hours'`: for "over the rate limit of 30 per hour". */
export function periodEnglish(text: string): string {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (!match) return text;
  const amount = Number(match[1]);
  const name = PERIOD_UNITS[match[2] ?? ''] ?? match[2];
  return amount === 1 ? `${name}` : `${amount} ${name}s`;
}

/** `1` → `1st`, `2` → `2nd`, `3` → `3rd`, `11` → `11th`: "the 3rd unblock of …". */
export function ordinalEnglish(n: number): string {
  const teen = Math.floor(n / 10) % 10 === 1;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const SPAN_PARTS: readonly [string, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/**
 * A length of time in milliseconds, exactly, in its units from days down: `7 days`,
 * `1 hour 30 minutes`, `1 minute`. Below a second: `0 seconds`.
 */
export function spanEnglish(ms: number): string {
  const parts: string[] = [];
  let left = Math.max(0, Math.floor(ms / 1000) * 1000);
  for (const [name, size] of SPAN_PARTS) {
    const amount = Math.floor(left / size);
    left -= amount * size;
    if (amount > 0) parts.push(`${amount} ${name}${amount === 1 ? '' : 's'}`);
  }
  return parts.length === 0 ? '0 seconds' : parts.join(' ');
}
