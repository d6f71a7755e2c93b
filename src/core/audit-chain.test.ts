import { createHasher, GENESIS_HASH, shortHash, verifyChain } from './audit-chain.js';
import { canonicalJson } from './json.js';
import type { AuditEvent, NewAuditEvent } from './model.js';

function newEvent(overrides: Partial<NewAuditEvent> = {}): NewAuditEvent {
  return {
    id: `ev-${Math.random().toString(16).slice(2)}`,
    type: 'requested',
    at: '2026-11-21T10:00:00.000Z',
    actor: { id: 'U0AGENT', name: 'agent' },
    operation: 'viewer.unblock',
    target: '09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: 'r1',
    outcome: null,
    error: null,
    ...overrides,
  };
}

function chainOf(count: number, hmacKey?: string): AuditEvent[] {
  const hash = createHasher(hmacKey);
  const out: AuditEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq += 1) {
    const unhashed = { ...newEvent({ id: `ev-${seq}` }), seq, prevHash };
    const event = { ...unhashed, hash: hash(unhashed) };
    out.push(event);
    prevHash = event.hash;
  }
  return out;
}

describe('compliance verifies the audit chain', () => {
  const hash = createHasher();

  it('accepts an untouched chain and reports its head', async () => {
    const events = chainOf(5);
    const result = await verifyChain(events, hash);
    expect(result).toEqual({ ok: true, count: 5, head: { seq: 5, hash: events[4]?.hash } });
  });

  it('accepts an empty log', async () => {
    expect(await verifyChain([], hash)).toEqual({ ok: true, count: 0, head: null });
  });

  it.each([
    [
      'an edited target',
      (e: AuditEvent[]) => {
        e[2] = { ...(e[2] as AuditEvent), target: '09120000000' };
      },
      3,
      'altered',
    ],
    [
      'a removed event',
      (e: AuditEvent[]) => {
        e.splice(1, 1);
      },
      3,
      'missing',
    ],
    [
      'two swapped events',
      (e: AuditEvent[]) => {
        const [a, b] = [e[1] as AuditEvent, e[2] as AuditEvent];
        e[1] = { ...b, seq: 2 };
        e[2] = { ...a, seq: 3 };
      },
      2,
      "events #2 and #3 are out of order: #3's prevHash is #1's hash",
    ],
    [
      'a rehashed edit without relinking',
      (e: AuditEvent[]) => {
        const edited = { ...(e[1] as AuditEvent), outcome: 'forged' };
        e[1] = { ...edited, hash: hash(edited) };
      },
      3,
      'does not link',
    ],
  ])('names the first broken event after %s', async (_what, tamper, brokenAt, reason) => {
    const events = chainOf(5);
    tamper(events);
    const result = await verifyChain(events, hash);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.brokenAt).toBe(brokenAt);
      expect(result.reason).toContain(reason);
    }
  });

  it('with an HMAC key, a chain made without the key does not verify', async () => {
    const plain = chainOf(2);
    const result = await verifyChain(plain, createHasher('k1'));
    expect(result.ok).toBe(false);
    expect((await verifyChain(chainOf(2, 'k1'), createHasher('k1'))).ok).toBe(true);
  });

  it('hashes do not depend on key order', () => {
    const unhashed = { ...newEvent(), seq: 1, prevHash: GENESIS_HASH };
    const reordered = Object.fromEntries(Object.entries(unhashed).reverse()) as typeof unhashed;
    expect(hash(reordered)).toBe(hash(unhashed));
    expect(shortHash(hash(unhashed))).toHaveLength(12);
  });
});

describe('hashing an event from its canonical text', () => {
  it('gives the hash of the event, with and without an HMAC key', () => {
    for (const key of [undefined, 'audit-hmac-key']) {
      const hash = createHasher(key);
      const event = { ...newEvent(), seq: 7, prevHash: GENESIS_HASH };
      expect(hash.ofCanonical?.(canonicalJson(event))).toBe(hash(event));
    }
  });
});
