import fc from 'fast-check';
import type { Actor, RequestState } from '../../src/core/model.js';
import { ava, bob, HOUR, kim, lee, MINUTE, type World } from './world.js';

/**
 * The model of the approval state machine (docs/approvals.md): each request is pending until two
 * distinct leads approved it (a delegate counting for the lead who delegated), then it ran once;
 * a lead rejects, the requester cancels or breaks the glass, it expires after two hours. The
 * model is the state of each request, who counted toward it, the open delegation and how often
 * the glass was broken; after every command the store and the service must agree with it.
 */

export const APPROVALS_POLICY = `
viewer.unblock:
  approval: true
  quorum: 2
  expiresIn: 2h
  breakGlass: { allowed: [${ava.id}], reviewWithin: 1h, max: 2, per: 24h }
`;

const UNBLOCK = '/v1/analysis/user/video/anomaly';

interface Asked {
  id: string;
  mobile: string;
  requester: Actor;
  state: RequestState;
  /** The leads counted toward the quorum (a delegate's approval counts for its lead). */
  counted: Set<string>;
  expiresAt: number;
}

export interface ApprovalModel {
  now: number;
  requests: Asked[];
  /** Lee's delegation to Bob, while open: its end. */
  delegatedUntil: number | null;
  /** When Ava broke the glass. */
  glass: number[];
  asked: number;
}

export type ApprovalCommand = fc.AsyncCommand<ApprovalModel, World, false>;

export const initialApprovalModel = (w: World): ApprovalModel => ({
  now: w.now().getTime(),
  requests: [],
  delegatedUntil: null,
  glass: [],
  asked: 0,
});

function fail(m: ApprovalModel, what: string): never {
  const requests = m.requests.map(
    (r) => `${r.id} ${r.requester.name} ${r.state} [${[...r.counted].join(',')}]`,
  );
  throw new Error(`${what}\n  model: ${JSON.stringify({ requests, delegatedUntil: m.delegatedUntil })}`);
}

/** Expiry happens at the first look after the time (the sweep, or a click). */
function expireSeen(m: ApprovalModel, r: Asked): void {
  if (r.state === 'pending' && m.now >= r.expiresAt) r.state = 'expired';
}

/**
 * The store shows each request in the model's state with the model's approvals; each succeeded
 * request reached the service exactly once, the others never; the audit chain verifies.
 */
export async function checkApprovals(m: ApprovalModel, w: World): Promise<void> {
  const sent = w.sandbox.requests().filter((q) => q.method === 'POST' && q.path === UNBLOCK);
  for (const r of m.requests) {
    const stored = await w.store().getRequest(r.id);
    if (stored === null) fail(m, `${r.id} is gone`);
    const expiredUnseen = r.state === 'pending' && stored.state === 'expired' && m.now >= r.expiresAt;
    if (stored.state !== r.state && !expiredUnseen)
      fail(m, `${r.id} is ${stored.state}, the model says ${r.state}`);
    if (expiredUnseen) r.state = 'expired';
    const counted = new Set(stored.approvals.map((a) => a.for?.id ?? a.by.id));
    if ([...counted].sort().join() !== [...r.counted].sort().join()) {
      fail(m, `${r.id} counts [${[...counted].join(',')}], the model [${[...r.counted].join(',')}]`);
    }
    const times = sent.filter((q) => JSON.stringify(q.body).includes(r.mobile)).length;
    if (times !== (r.state === 'succeeded' ? 1 : 0))
      fail(m, `${r.id} (${r.state}) reached the service ${times} times`);
  }
  if (!(await w.chainOk())) fail(m, 'the audit chain does not verify');
}

const pick = <T>(list: readonly T[], k: number): T | undefined => list[k % Math.max(1, list.length)];

/** An agent asks to unblock a viewer. */
export class AskUnblock implements ApprovalCommand {
  constructor(readonly who: Actor) {}
  check = () => true;
  async run(m: ApprovalModel, w: World): Promise<void> {
    m.asked += 1;
    const mobile = `0912123${String(4000 + m.asked).padStart(4, '0')}`;
    const ops = w.replica(0);
    const submitted = await ops.submit(
      this.who,
      await ops.prepare(this.who, { kind: 'viewer.unblock', mobileNumber: mobile }),
    );
    if (submitted.kind !== 'pending') fail(m, `an unblock under quorum 2 was ${submitted.kind}`);
    const r = submitted.request;
    m.requests.push({
      id: r.id,
      mobile,
      requester: this.who,
      state: 'pending',
      counted: new Set(),
      expiresAt: r.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(r.expiresAt),
    });
  }
  toString = () => `AskUnblock(${this.who.name})`;
}

/** Whose approval `who`'s click counts as on `r`, or null when it must be refused. */
function countsFor(m: ApprovalModel, r: Asked, who: Actor): string | null {
  if (r.state !== 'pending' || who.id === r.requester.id) return null;
  if (who.id === lee.id || who.id === kim.id) return r.counted.has(who.id) ? null : who.id;
  const delegate = who.id === bob.id && m.delegatedUntil !== null && m.now < m.delegatedUntil;
  if (!delegate || r.requester.id === lee.id || r.counted.has(lee.id)) return null;
  return lee.id;
}

/**
 * Someone clicks Approve on the `k`-th request; `twice`: Slack delivers the click again, to the
 * other replica, at the same moment.
 */
export class ApproveClick implements ApprovalCommand {
  constructor(
    readonly k: number,
    readonly who: Actor,
    readonly twice: boolean,
  ) {}
  check = (m: Readonly<ApprovalModel>) => m.requests.length > 0;
  async run(m: ApprovalModel, w: World): Promise<void> {
    const r = pick(m.requests, this.k);
    if (r === undefined) return;
    if (m.delegatedUntil !== null && m.now >= m.delegatedUntil && this.who.id === bob.id)
      m.delegatedUntil = null;
    expireSeen(m, r);
    const counts = countsFor(m, r, this.who);
    const clicks = [w.replica(0).approve(r.id, this.who)];
    if (this.twice) clicks.push(w.replica(1).approve(r.id, this.who));
    const results = await Promise.all(clicks);
    const accepted = results.filter((x) => x.kind === 'pending' || x.kind === 'executed').length;
    if (counts === null && accepted > 0) fail(m, `${this.who.name}'s approval of ${r.id} was accepted`);
    if (counts !== null && accepted !== 1)
      fail(m, `${this.who.name}'s approval of ${r.id}: ${results.map((x) => x.kind).join(', ')}`);
    if (counts === null) return;
    r.counted.add(counts);
    if (r.counted.size >= 2) r.state = 'succeeded';
  }
  toString = () => `ApproveClick(${this.k}, ${this.who.name}${this.twice ? ', delivered twice' : ''})`;
}

/** Someone clicks Reject on the `k`-th request: only an approver (not a delegate) while it waits. */
export class RejectClick implements ApprovalCommand {
  constructor(
    readonly k: number,
    readonly who: Actor,
  ) {}
  check = (m: Readonly<ApprovalModel>) => m.requests.length > 0;
  async run(m: ApprovalModel, w: World): Promise<void> {
    const r = pick(m.requests, this.k);
    if (r === undefined) return;
    expireSeen(m, r);
    const may = r.state === 'pending' && (this.who.id === lee.id || this.who.id === kim.id);
    const result = await w.replica(0).reject(r.id, this.who, 'no');
    if (may !== (result.kind === 'rejected')) fail(m, `${this.who.name}'s reject of ${r.id}: ${result.kind}`);
    if (may) r.state = 'rejected';
  }
  toString = () => `RejectClick(${this.k}, ${this.who.name})`;
}

/** Someone cancels the `k`-th request: only its requester while it waits. */
export class CancelClick implements ApprovalCommand {
  constructor(
    readonly k: number,
    readonly who: Actor,
  ) {}
  check = (m: Readonly<ApprovalModel>) => m.requests.length > 0;
  async run(m: ApprovalModel, w: World): Promise<void> {
    const r = pick(m.requests, this.k);
    if (r === undefined) return;
    expireSeen(m, r);
    const may = r.state === 'pending' && this.who.id === r.requester.id;
    const result = await w.replica(1).cancel(r.id, this.who, null);
    if (may !== (result.kind === 'cancelled'))
      fail(m, `${this.who.name}'s cancel of ${r.id}: ${result.kind}`);
    if (may) r.state = 'cancelled';
  }
  toString = () => `CancelClick(${this.k}, ${this.who.name})`;
}

/** The requester breaks the glass on the `k`-th request: Ava only, at most twice a day. */
export class BreakGlass implements ApprovalCommand {
  constructor(readonly k: number) {}
  check = (m: Readonly<ApprovalModel>) => m.requests.length > 0;
  async run(m: ApprovalModel, w: World): Promise<void> {
    const r = pick(m.requests, this.k);
    if (r === undefined) return;
    expireSeen(m, r);
    const who = r.requester;
    const recent = m.glass.filter((at) => m.now - at < 24 * HOUR).length;
    const may = r.state === 'pending' && who.id === ava.id && recent < 2;
    const result = await w
      .replica(0)
      .breakGlass(r.id, who, { reason: 'the viewer has an exam now', words: 'break glass' });
    if (may !== (result.kind === 'executed'))
      fail(m, `${who.name} broke the glass on ${r.id}: ${result.kind}`);
    if (!may) return;
    r.state = 'succeeded';
    m.glass.push(m.now);
  }
  toString = () => `BreakGlass(${this.k})`;
}

/** Lee delegates to Bob for a while, or ends the delegation. */
export class Delegate implements ApprovalCommand {
  constructor(readonly hours: number | null) {}
  check = () => true;
  async run(m: ApprovalModel, w: World): Promise<void> {
    const open = m.delegatedUntil !== null && m.now < m.delegatedUntil;
    if (this.hours === null) {
      const result = await w.replica(1).cancelDelegation(lee);
      if (open !== (result.kind === 'cancelled')) fail(m, `Lee ends the delegation: ${result.kind}`);
      m.delegatedUntil = null;
      return;
    }
    const ms = this.hours * HOUR;
    const result = await w.replica(0).delegate(lee, {
      delegate: { id: bob.id, name: bob.name },
      until: { kind: 'duration', ms, text: `${this.hours}h` },
      reason: null,
    });
    // One delegation at a time: a second while one is open is refused.
    if (open === (result.kind === 'delegated')) fail(m, `Lee delegates to Bob: ${result.kind}`);
    if (!open) m.delegatedUntil = m.now + ms;
  }
  toString = () => (this.hours === null ? 'EndDelegation' : `Delegate(Lee to Bob, ${this.hours}h)`);
}

/** Time passes; the sweep expires what waited too long and ends delegations past their time. */
export class TimePasses implements ApprovalCommand {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(m: ApprovalModel, w: World): Promise<void> {
    w.advance(this.minutes * MINUTE);
    m.now = w.now().getTime();
    await w.replica(1).expireDue();
    await w.replica(0).expireDelegations();
    for (const r of m.requests) expireSeen(m, r);
    if (m.delegatedUntil !== null && m.now >= m.delegatedUntil) m.delegatedUntil = null;
  }
  toString = () => `TimePasses(${this.minutes}m)`;
}

class Checked implements ApprovalCommand {
  constructor(readonly inner: ApprovalCommand) {}
  check = (m: Readonly<ApprovalModel>) => this.inner.check(m);
  async run(m: ApprovalModel, w: World): Promise<void> {
    await this.inner.run(m, w);
    await checkApprovals(m, w);
  }
  toString = () => this.inner.toString();
}

const person = fc.constantFrom(ava, bob, lee, kim);
const k = fc.nat({ max: 5 });

export const approvalCommands: fc.Arbitrary<ApprovalCommand>[] = [
  fc.constantFrom(ava, bob).map((who) => new AskUnblock(who)),
  fc.tuple(k, person, fc.boolean()).map(([i, who, twice]) => new ApproveClick(i, who, twice)),
  fc.tuple(k, person, fc.boolean()).map(([i, who, twice]) => new ApproveClick(i, who, twice)),
  fc.tuple(k, person).map(([i, who]) => new RejectClick(i, who)),
  fc.tuple(k, person).map(([i, who]) => new CancelClick(i, who)),
  k.map((i) => new BreakGlass(i)),
  fc.constantFrom(1, 3, null).map((h) => new Delegate(h)),
  fc.constantFrom(10, 50, 130).map((min) => new TimePasses(min)),
].map((a) => a.map((c): ApprovalCommand => new Checked(c)));
