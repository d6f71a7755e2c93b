import { inspect } from 'node:util';
import { jest } from '@jest/globals';
import { sandboxClient } from '../../test/sandbox-client.js';
import type { VideoClientHandle } from '../client/index.js';
import { approve as approveStep, newRequest } from '../core/approvals.js';
import { createHasher, verifyChain } from '../core/audit-chain.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import { ConfigError, InputError, PolicyDeniedError } from '../core/errors.js';
import { newEventId } from '../core/ids.js';
import type { Actor, AuditEvent, OperationRequest } from '../core/model.js';
import { buildPolicy } from '../core/policy.js';
import { say } from '../core/said.js';
import { sealerOf, sealKeyOf } from '../core/seal.js';
import { english, messageOf } from '../i18n/said.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import { type NotificationJob, openStore, type Store } from '../store/index.js';
import { createOperations } from './operations.js';
import type { CoverRef, Operations, OperationsDeps, PrepareInput, ServiceLogger } from './types.js';

/** The key every process of these tests seals with, as one deployment's VIDEO_SECRET_KEY gives. */
const SEAL_KEY = sealKeyOf(DEMO.secretKey);
/** What a process that judged a request would seal, for the steps the tests take by hand. */
const seal = sealerOf(SEAL_KEY);

const hash = createHasher();
const START = new Date('2025-03-01T10:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const ava: Actor = { id: 'U0AGENT1', name: 'Ava' };
const bob: Actor = { id: 'U0AGENT2', name: 'Bob' };
const lee: Actor = { id: 'U0LEAD1', name: 'Lee' };
const kim: Actor = { id: 'U0LEAD2', name: 'Kim' };
const max: Actor = { id: 'U0LEAD3', name: 'Max' };

interface Harness {
  ops: Operations;
  store: Store;
  sandbox: Sandbox;
  client: VideoClientHandle;
  now(): Date;
  advance(ms: number): void;
  /** The notification jobs waiting in the store, oldest first (left waiting). */
  notified(): Promise<NotificationJob[]>;
  logged: { level: string; obj: object; msg: string | undefined }[];
  events(): Promise<AuditEvent[]>;
  build(overrides: Partial<OperationsDeps>): Operations;
}

interface SetupOptions {
  leads?: string[];
  agents?: string[];
  policyFile?: string;
  groups?: Record<string, string[]>;
  deps?: Partial<OperationsDeps>;
}

let current: Harness | null = null;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, conversionDelayMs: 50 });
});

afterAll(async () => {
  await sandbox.close();
});

async function setup(options: SetupOptions = {}): Promise<Harness> {
  sandbox.reset();
  const store = await openStore('sqlite::memory:', { hash });
  const client = sandboxClient(sandbox.url);
  let now = START;
  const logged: Harness['logged'] = [];
  const logger: ServiceLogger = {
    info: (obj, msg) => logged.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => logged.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => logged.push({ level: 'error', obj, msg }),
  };
  const policy = buildPolicy({
    leads: options.leads ?? [lee.id, kim.id, max.id],
    agents: options.agents,
    fileText: options.policyFile,
    fileName: 'policy.yaml',
  });
  const groups = options.groups ?? {};
  const base: OperationsDeps = {
    store,
    client,
    policy,
    directory: { groupsOf: async (id) => groups[id] ?? [] },
    clock: () => now,
    sealKey: SEAL_KEY,
    logger,
    ...options.deps,
  };
  const harness: Harness = {
    ops: createOperations(base),
    store,
    sandbox,
    client,
    now: () => now,
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
    async notified() {
      const later = '2100-01-01T00:00:00.000Z';
      const jobs = await store.claimNotifications({
        worker: 'test',
        requests: 1000,
        leaseMs: 1,
        now: later,
        settledAt: later,
      });
      await store.releaseNotifications(
        jobs.map((j) => j.id),
        START.toISOString(),
        'test',
      );
      return jobs;
    },
    logged,
    events: () => store.listAudit(),
    build: (overrides) => createOperations({ ...base, ...overrides }),
  };
  current = harness;
  return harness;
}

// Every scenario ends with a chain that verifies: nothing the services did broke the audit log.
afterEach(async () => {
  if (!current) return;
  const { store, client } = current;
  current = null;
  const verdict = await verifyChain(store.iterateAudit(), hash);
  client.close();
  await store.close();
  expect(verdict).toMatchObject({ ok: true });
});

function types(events: readonly AuditEvent[], requestId?: string): string[] {
  return events.filter((e) => requestId === undefined || e.requestId === requestId).map((e) => e.type);
}

function upstreamCalls(method: string, path: string): number {
  return sandbox.requests().filter((r) => r.method === method && r.path === path).length;
}

async function submitted(h: Harness, actor: Actor, input: PrepareInput, reason?: string) {
  const prepared = await h.ops.prepare(actor, input);
  return h.ops.submit(actor, prepared, { reason: reason ?? null });
}

async function pendingRequest(h: Harness, actor: Actor, input: PrepareInput): Promise<OperationRequest> {
  const result = await submitted(h, actor, input, 'the owner asked');
  if (result.kind !== 'pending') throw new Error(`expected pending, got ${result.kind}`);
  return result.request;
}

describe('direct operations', () => {
  test('an agent unblocks a viewer: it runs at once and is audited requested, executing, succeeded', async () => {
    const h = await setup();
    const mobile = DEMO.blockedMobiles[0];
    const prepared = await h.ops.prepare(ava, { kind: 'viewer.unblock', mobileNumber: mobile });
    expect(prepared).toMatchObject({
      operation: 'viewer.unblock',
      params: { mobileNumber: mobile },
      target: `viewer ${mobile}`,
      preview: { kind: 'unblock', mobileNumber: mobile, blocked: true },
      warnings: [],
    });
    const result = await h.ops.submit(ava, prepared, { reason: 'error 9910 on the phone' });
    expect(result.kind).toBe('executed');
    if (result.kind !== 'executed') return;
    expect(result.request).toMatchObject({
      state: 'succeeded',
      quorum: 0,
      reason: 'error 9910 on the phone',
    });
    expect(result.request.result).toMatchObject({ mobileNumber: mobile, unblocked: true, wasBlocked: true });
    expect(sandbox.state().blockedViewers).not.toContain(mobile);
    const events = await h.events();
    expect(types(events)).toEqual(['requested', 'executing', 'succeeded']);
    expect(events.every((e) => e.requestId === result.request.id && e.params !== null)).toBe(true);
    expect(events[0]?.actor).toEqual(ava);
    // Answered where it was asked: a direct request that ran records no notification job.
    expect(await h.notified()).toEqual([]);
  });

  test('a request ID that is already taken is drawn again: the unblock runs once, under a new ID', async () => {
    // Request IDs are 40 random bits: the first two drawn here are the same.
    const drawn = ['R-AAAAAAAA', 'R-AAAAAAAA', 'R-BBBBBBBB'];
    const h = await setup({
      deps: { ids: { request: () => drawn.shift() ?? 'R-CCCCCCCC', event: newEventId } },
    });
    const first = await submitted(h, ava, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[0] });
    const second = await submitted(h, ava, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[1] });

    expect(first).toMatchObject({ kind: 'executed', request: { id: 'R-AAAAAAAA', state: 'succeeded' } });
    expect(second).toMatchObject({ kind: 'executed', request: { id: 'R-BBBBBBBB', state: 'succeeded' } });
    expect(upstreamCalls('POST', '/v1/analysis/user/video/anomaly')).toBe(2);
    expect(types(await h.events(), 'R-BBBBBBBB')).toEqual(['requested', 'executing', 'succeeded']);
    expect(h.logged).toContainEqual(
      expect.objectContaining({ msg: 'request ID already taken; drawing another' }),
    );
  });

  test('the 31st unblock by one agent within an hour needs a lead; an hour later it runs directly again', async () => {
    const h = await setup();
    for (let i = 0; i < 30; i += 1) {
      const r = await submitted(h, ava, { kind: 'viewer.unblock', mobileNumber: DEMO.unblockedMobiles[0] });
      expect(r.kind).toBe('executed');
      h.advance(MINUTE);
    }
    const thirtyFirst = await submitted(h, ava, {
      kind: 'viewer.unblock',
      mobileNumber: DEMO.blockedMobiles[1],
    });
    expect(thirtyFirst).toMatchObject({
      kind: 'pending',
      why: say.whyRateLimit(30, '1h'),
      request: { state: 'pending', quorum: 1 },
    });
    expect(sandbox.state().blockedViewers).toContain(DEMO.blockedMobiles[1]);
    // Another agent is not held back by Ava's count.
    expect(
      (await submitted(h, bob, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[2] })).kind,
    ).toBe('executed');
    h.advance(HOUR);
    expect(
      (await submitted(h, ava, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[0] })).kind,
    ).toBe('executed');
  });

  test('an agent retries a failed conversion directly; the sandbox queues it', async () => {
    const h = await setup();
    const fileId = DEMO.failedFileIds[0];
    const result = await submitted(h, ava, { kind: 'file.retry', fileId });
    expect(result).toMatchObject({
      kind: 'executed',
      request: { state: 'succeeded', target: `file ${fileId}` },
    });
    expect(sandbox.state().files.find((f) => f._id === fileId)?.hlsStatus).toBe('waiting');
  });

  test('someone outside AGENTS is denied, and the denial is audited', async () => {
    const h = await setup({ agents: [ava.id] });
    const result = await submitted(h, bob, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[0] });
    expect(result).toEqual({
      kind: 'denied',
      reason: 'You are not one of the agents allowed to use vidops (AGENTS).',
      said: { key: 'polNotAgent', params: [] },
    });
    const events = await h.events();
    expect(events.map((e) => [e.type, e.actor.id, e.operation, e.requestId])).toEqual([
      ['denied', bob.id, 'viewer.unblock', null],
    ]);
    expect(upstreamCalls('POST', '/v1/analysis/user/video/anomaly')).toBe(0);
  });
});

describe('approvals', () => {
  test('a folder delete needs a lead; the lead approves and it is deleted once', async () => {
    const h = await setup();
    const bucketId = DEMO.folders.lectures;
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId });
    expect(request).toMatchObject({
      state: 'pending',
      quorum: 1,
      target: `folder ${bucketId}`,
      expiresAt: '2025-03-02T10:00:00.000Z',
      preview: { kind: 'delete', resource: 'folder', id: bucketId, title: 'Course lectures' },
    });
    expect(request.id).toMatch(/^R-[0-9A-Z]{8}$/);
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(0);

    h.advance(5 * MINUTE);
    const decided = await h.ops.approve(request.id, lee);
    expect(decided.kind).toBe('executed');
    expect(decided.request).toMatchObject({
      state: 'succeeded',
      approvals: [{ by: lee, at: '2025-03-01T10:05:00.000Z' }],
      result: { _id: bucketId, deleted: true },
    });
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(1);
    expect(sandbox.state().folders.map((f) => f._id)).not.toContain(bucketId);
    const events = await h.events();
    expect(events.map((e) => [e.type, e.actor.name])).toEqual([
      ['requested', 'Ava'],
      ['approved', 'Lee'],
      ['executing', 'Lee'],
      ['succeeded', 'vidops'],
    ]);
    // One job per change, recorded with it: the services themselves send nothing to Slack.
    expect((await h.notified()).map((j) => [j.state, j.version])).toEqual([
      ['pending', 1],
      ['executing', 2],
      ['succeeded', 3],
    ]);
  });

  test('a lead approves a delete and the approval message is recorded while it runs: the outcome is recorded all the same, once', async () => {
    const h = await setup();
    const bucketId = DEMO.folders.lectures;
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId });
    // The service answers late; meanwhile the notifier records where it posted the approval message.
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'DELETE', latencyAfterMs: 200, times: 1 }]);
    const approving = h.ops.approve(request.id, lee);
    for (let i = 0; i < 100 && (await h.store.getRequest(request.id))?.state !== 'executing'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await h.ops.attachSlackMessage(request.id, { channel: 'C0APPROVALS', ts: '1700000000.000100' });

    const decided = await approving;
    expect(decided.request).toMatchObject({
      state: 'succeeded',
      slack: { channel: 'C0APPROVALS', ts: '1700000000.000100' },
    });
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(1);
    expect(types(await h.events(), request.id)).toEqual(['requested', 'approved', 'executing', 'succeeded']);
  });

  test('a lead cannot approve their own request; the attempt is audited as denied', async () => {
    const h = await setup();
    const request = await pendingRequest(h, lee, { kind: 'folder.delete', bucketId: DEMO.folders.marketing });
    const decided = await h.ops.approve(request.id, lee);
    expect(decided).toMatchObject({
      kind: 'refused',
      reason: 'You asked for this change, so someone else has to approve it.',
      request: { state: 'pending', version: 1 },
    });
    const events = await h.events();
    expect(events.map((e) => [e.type, e.actor.id])).toEqual([
      ['requested', lee.id],
      ['denied', lee.id],
    ]);
    expect(events[1]?.outcome).toMatchObject({ action: 'approve' });
    expect((await h.ops.approve(request.id, kim)).kind).toBe('executed');
  });

  test('an agent who is not a lead is refused', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'file.delete', fileId: DEMO.files.trailer });
    const decided = await h.ops.approve(request.id, bob);
    expect(decided).toMatchObject({
      kind: 'refused',
      reason: 'Only leads can approve "Delete file" requests.',
    });
    expect(types(await h.events())).toEqual(['requested', 'denied']);
    expect((await h.store.getRequest(request.id))?.state).toBe('pending');
    expect(upstreamCalls('DELETE', '/v1/storage/bucket/file')).toBe(0);
  });

  test('a lead through the leads user group may approve', async () => {
    const h = await setup({ leads: ['S0LEADS', lee.id], groups: { [max.id]: ['S0LEADS'] } });
    const request = await pendingRequest(h, ava, {
      kind: 'playlist.delete',
      playlistId: DEMO.playlists.gettingStarted,
    });
    expect((await h.ops.approve(request.id, max)).kind).toBe('executed');
  });

  test('quorum 2 needs two distinct leads; the same lead twice does not count', async () => {
    const h = await setup({ policyFile: 'folder.delete: { quorum: 2 }' });
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.podcasts });
    expect(request.quorum).toBe(2);
    const first = await h.ops.approve(request.id, lee);
    expect(first).toMatchObject({ kind: 'pending', request: { state: 'pending', approvals: [{ by: lee }] } });
    const again = await h.ops.approve(request.id, lee);
    expect(again).toMatchObject({ kind: 'refused', reason: 'You have already approved this request.' });
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(0);
    const second = await h.ops.approve(request.id, kim);
    expect(second).toMatchObject({ kind: 'executed', request: { state: 'succeeded' } });
    expect(second.request?.approvals.map((a) => a.by.id)).toEqual([lee.id, kim.id]);
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(1);
    // The second click of the same lead is not a policy violation: no denied event.
    expect(types(await h.events())).toEqual(['requested', 'approved', 'approved', 'executing', 'succeeded']);
  });

  test('20 leads clicking Approve at once execute the delete exactly once', async () => {
    const leads = Array.from({ length: 20 }, (_, i): Actor => ({ id: `U0LEADX${i}`, name: `Lead ${i}` }));
    const h = await setup({
      leads: ['S0LEADS'],
      groups: Object.fromEntries(leads.map((l) => [l.id, ['S0LEADS']])),
    });
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    const results = await Promise.all(leads.map((lead) => h.ops.approve(request.id, lead)));
    expect(results.filter((r) => r.kind === 'executed')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'refused')).toHaveLength(19);
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(1);
    const final = await h.store.getRequest(request.id);
    expect(final?.state).toBe('succeeded');
    expect(final?.approvals).toHaveLength(1);
    expect(types(await h.events())).toEqual(['requested', 'approved', 'executing', 'succeeded']);
  });

  test('20 concurrent clicks of one lead on a quorum-2 request count once', async () => {
    const h = await setup({ policyFile: 'file.delete: { quorum: 2 }' });
    const request = await pendingRequest(h, ava, { kind: 'file.delete', fileId: DEMO.files.teaser });
    const results = await Promise.all(Array.from({ length: 20 }, () => h.ops.approve(request.id, lee)));
    expect(results.filter((r) => r.kind === 'pending')).toHaveLength(1);
    expect((await h.store.getRequest(request.id))?.approvals).toHaveLength(1);
    expect(upstreamCalls('DELETE', '/v1/storage/bucket/file')).toBe(0);
  });

  test('approving what was already executed says who approved it and when', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.marketing });
    h.advance(2 * MINUTE);
    await h.ops.approve(request.id, lee);
    const late = await h.ops.approve(request.id, kim);
    expect(late).toMatchObject({
      kind: 'refused',
      reason: `Request ${request.id} cannot be approved: it was already approved by Lee and executed at 10:02 UTC.`,
    });
  });

  test('an unknown request ID is refused', async () => {
    const h = await setup();
    expect(await h.ops.approve('R-NOTHERE', lee)).toEqual({
      kind: 'refused',
      reason: 'There is no request R-NOTHERE.',
      said: { key: 'svcNoRequest', params: ['R-NOTHERE'] },
    });
  });
});

describe('reject, cancel, expire', () => {
  test('before the reject form opens, the requester and an agent are refused in the words reject uses; nothing is audited', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.create', title: 'A' });
    const before = (await h.events()).length;

    const own = await h.ops.checkReject(request.id, ava);
    const agent = await h.ops.checkReject(request.id, bob);
    expect((await h.events()).length).toBe(before);
    expect(own).toMatchObject({
      kind: 'refused',
      reason: 'This is your own request: cancel it instead of rejecting it.',
    });
    expect(await h.ops.reject(request.id, ava, 'no')).toEqual(own);
    expect(await h.ops.reject(request.id, bob, 'no')).toEqual(agent);
    expect(await h.ops.checkReject(request.id, lee)).toMatchObject({
      kind: 'allowed',
      request: { id: request.id },
    });

    await h.ops.approve(request.id, lee);
    expect(await h.ops.checkReject(request.id, kim)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(new RegExp(`^Request ${request.id} cannot be rejected: it was already`)),
    });
  });

  test('a lead rejects with a note; nothing is sent upstream', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, {
      kind: 'whitelist.set',
      change: 'add',
      ips: ['5.160.12.7'],
    });
    await expect(h.ops.reject(request.id, lee, '  ')).rejects.toBeInstanceOf(InputError);
    const result = await h.ops.reject(request.id, lee, 'not our server');
    expect(result).toMatchObject({
      kind: 'rejected',
      request: { state: 'rejected', decidedBy: lee, decisionNote: 'not our server' },
    });
    expect(upstreamCalls('POST', '/v1/storage/dns/whitelist')).toBe(0);
    expect(types(await h.events())).toEqual(['requested', 'rejected']);
    expect(await h.ops.approve(request.id, kim)).toMatchObject({
      kind: 'refused',
      reason: `Request ${request.id} cannot be approved: it was already rejected by Lee at 10:00 UTC.`,
    });
  });

  test('an agent cannot reject; the requester is told to cancel instead', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.create', title: 'Spring 2025' });
    expect(await h.ops.reject(request.id, bob, 'no')).toMatchObject({ kind: 'refused' });
    expect(await h.ops.reject(request.id, ava, 'changed my mind')).toMatchObject({
      kind: 'refused',
      reason: 'This is your own request: cancel it instead of rejecting it.',
    });
    expect(types(await h.events())).toEqual(['requested', 'denied']);
  });

  test('the requester cancels; a lead cannot cancel for them', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'file.delete', fileId: DEMO.files.lecture1 });
    expect(await h.ops.cancel(request.id, lee)).toMatchObject({
      kind: 'refused',
      reason: `Only Ava, who asked for it, can cancel request ${request.id}.`,
    });
    expect(await h.ops.cancel(request.id, ava, 'wrong file')).toMatchObject({
      kind: 'cancelled',
      request: { state: 'cancelled', decidedBy: ava, decisionNote: 'wrong file' },
    });
    expect(types(await h.events())).toEqual(['requested', 'denied', 'cancelled']);
    expect(await h.ops.cancel(request.id, ava)).toMatchObject({ kind: 'refused' });
  });

  test('a request nobody approves within 24 h expires, by the system', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, {
      kind: 'folder.edit',
      bucketId: DEMO.folders.marketing,
      title: 'Ads',
    });
    h.advance(23 * HOUR);
    expect(await h.ops.expireDue()).toEqual([]);
    h.advance(HOUR);
    const expired = await h.ops.expireDue();
    expect(expired.map((r) => [r.id, r.state])).toEqual([[request.id, 'expired']]);
    const events = await h.events();
    expect(events.map((e) => [e.type, e.actor])).toEqual([
      ['requested', ava],
      ['expired', { id: 'system', name: 'vidops' }],
    ]);
    expect(await h.ops.approve(request.id, lee)).toMatchObject({
      kind: 'refused',
      reason: `Request ${request.id} cannot be approved: it was already expired at 10:00 UTC without enough approvals.`,
    });
  });

  test('approving after the expiry, before the sweeper ran, expires it then and there', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    h.advance(25 * HOUR);
    const result = await h.ops.approve(request.id, lee);
    expect(result).toMatchObject({ kind: 'refused', request: { state: 'expired' } });
    expect(result.kind === 'refused' && result.reason).toBe(
      `Request ${request.id} cannot be approved: it already expired at 10:00 UTC without enough approvals.`,
    );
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(0);
    expect(types(await h.events())).toEqual(['requested', 'expired']);
  });

  test('the sweeper expires due requests without being asked', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    h.advance(25 * HOUR);
    const stop = h.ops.startSweeper(60_000);
    const deadline = Date.now() + 5000;
    let state = (await h.store.getRequest(request.id))?.state;
    while (state !== 'expired' && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
      state = (await h.store.getRequest(request.id))?.state;
    }
    await stop();
    expect(state).toBe('expired');
  });
});

describe('execution outcomes', () => {
  test('a failure is recorded with the typed error and no secret', async () => {
    const h = await setup();
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'PATCH', status: 503 }]);
    const request = await pendingRequest(h, ava, {
      kind: 'folder.edit',
      bucketId: DEMO.folders.lectures,
      title: 'Lectures 2025',
    });
    const result = await h.ops.approve(request.id, lee);
    sandbox.clearFaults();
    expect(result).toMatchObject({ kind: 'executed', request: { state: 'failed', result: null } });
    expect(result.request?.error).toMatchObject({ name: 'ServerError', status: 503 });
    expect(result.request?.error?.message).toContain('503');
    const events = await h.events();
    expect(types(events)).toEqual(['requested', 'approved', 'executing', 'failed']);
    expect(events[3]?.error).toEqual(result.request?.error);
    const everything = [
      inspect(result, { depth: 20 }),
      JSON.stringify(events),
      JSON.stringify(h.logged),
    ].join('\n');
    expect(everything).not.toContain(DEMO.apiKey);
    expect(everything).not.toContain(DEMO.secretKey);
  });

  test('a whitelist that changed after the request is not overwritten', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, {
      kind: 'whitelist.set',
      change: 'add',
      ips: ['5.160.12.7'],
    });
    expect(request.preview).toEqual({
      kind: 'whitelist',
      before: [],
      after: ['5.160.12.7'],
      added: ['5.160.12.7'],
      removed: [],
    });
    await h.client.whitelist.replace(['185.8.172.1']);
    const result = await h.ops.approve(request.id, lee);
    expect(result).toMatchObject({
      kind: 'executed',
      request: { state: 'failed', error: { name: 'WhitelistConflictError' } },
    });
    expect(sandbox.state().whitelist).toEqual(['185.8.172.1']);
  });
});

describe('after a crash', () => {
  async function interrupted(h: Harness, input: PrepareInput): Promise<OperationRequest> {
    // What a process leaves behind when it dies between winning `executing` and recording the outcome.
    const prepared = await h.ops.prepare(ava, input);
    const created = newRequest(
      {
        id: `R-CRASH${input.kind === 'viewer.unblock' ? '001' : '002'}`,
        operation: prepared.operation,
        params: prepared.params,
        target: prepared.target,
        preview: prepared.preview,
        reason: null,
        requester: ava,
        mode: { kind: 'direct' },
      },
      { now: h.now(), eventId: () => newEventId(), seal },
    );
    return (await h.store.createRequest(created.request, created.events)).request;
  }

  test('before the settle form opens, the requester and an agent are refused in the words resolve uses; nothing is audited', async () => {
    const h = await setup();
    const retry = await interrupted(h, { kind: 'file.retry', fileId: DEMO.failedFileIds[1] });
    expect((await h.ops.checkResolve(retry.id, lee)).kind).toBe('refused');
    h.advance(3 * MINUTE);
    await h.ops.resumeInterrupted();
    const before = (await h.events()).length;

    expect(await h.ops.checkResolve(retry.id, ava)).toMatchObject({
      kind: 'refused',
      reason: 'You asked for this change, so someone else has to settle its outcome.',
    });
    const byBob = await h.ops.checkResolve(retry.id, bob);
    expect(byBob).toMatchObject({ kind: 'refused' });
    expect((await h.events()).length).toBe(before);
    // The same words as the refusal of the settlement itself, which is audited.
    const settled = await h.ops.resolve(retry.id, bob, 'applied', 'checked the panel');
    expect(settled).toMatchObject({ kind: 'refused', reason: byBob.kind === 'refused' ? byBob.reason : '' });
    expect(types(await h.events()).at(-1)).toBe('denied');
    expect(await h.ops.checkResolve(retry.id, lee)).toMatchObject({
      kind: 'allowed',
      request: { id: retry.id },
    });
    expect(await h.ops.checkResolve('R-NOPE0000', lee)).toEqual({
      kind: 'refused',
      reason: 'There is no request R-NOPE0000.',
      said: { key: 'svcNoRequest', params: ['R-NOPE0000'] },
    });
  });

  test('an interrupted unblock (idempotent) is run again; a retry-conversion (not idempotent) becomes unknown', async () => {
    const h = await setup();
    const unblock = await interrupted(h, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[0] });
    const retry = await interrupted(h, { kind: 'file.retry', fileId: DEMO.failedFileIds[1] });
    h.advance(MINUTE);
    expect(await h.ops.resumeInterrupted()).toEqual({ resumed: [], unknown: [] });
    h.advance(2 * MINUTE);
    const swept = await h.ops.resumeInterrupted();
    expect(swept.resumed.map((r) => [r.id, r.state])).toEqual([[unblock.id, 'succeeded']]);
    expect(swept.unknown.map((r) => [r.id, r.state])).toEqual([[retry.id, 'unknown']]);
    expect(upstreamCalls('POST', '/v1/analysis/user/video/anomaly')).toBe(1);
    expect(upstreamCalls('POST', '/v1/storage/bucket/file/queue/retry')).toBe(0);
    const events = await h.events();
    expect(types(events, unblock.id)).toEqual(['requested', 'executing', 'executing', 'succeeded']);
    expect(events.filter((e) => e.requestId === unblock.id)[2]?.outcome).toEqual({ resumed: true });
    expect(types(events, retry.id)).toEqual(['requested', 'executing', 'unknown']);
    // Sweeping again does nothing: both are settled.
    expect(await h.ops.resumeInterrupted()).toEqual({ resumed: [], unknown: [] });
  });

  test('two replicas sweeping at once resume an interrupted edit once', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, {
      kind: 'folder.edit',
      bucketId: DEMO.folders.podcasts,
      title: 'Podcasts 2025',
    });
    // Approved by a replica that then died before calling the service.
    const c = { now: h.now(), eventId: () => newEventId(), seal };
    const step = approveStep(request, lee, c);
    await h.store.transition(request.id, request.version, step.patch, h.now().toISOString(), step.events);
    h.advance(10 * MINUTE);
    const replicaB = h.build({});
    const [a, b] = await Promise.all([h.ops.resumeInterrupted(), replicaB.resumeInterrupted()]);
    expect([...a.resumed, ...b.resumed].map((r) => r.state)).toEqual(['succeeded']);
    expect(upstreamCalls('PATCH', '/v1/storage/bucket')).toBe(1);
  });

  test.each([
    ['folder', { kind: 'folder.delete', bucketId: DEMO.folders.lectures }, '/v1/storage/bucket'],
    ['file', { kind: 'file.delete', fileId: DEMO.files.episode1 }, '/v1/storage/bucket/file'],
    ['playlist', { kind: 'playlist.delete', playlistId: DEMO.playlists.gettingStarted }, '/v1/playlist'],
  ] as const)(
    'an interrupted %s delete is left unknown by two replicas sweeping, never sent by them',
    async (_k, input, path) => {
      const h = await setup();
      const request = await pendingRequest(h, ava, input);
      const c = { now: h.now(), eventId: () => newEventId(), seal };
      const step = approveStep(request, lee, c);
      await h.store.transition(request.id, request.version, step.patch, h.now().toISOString(), step.events);
      h.advance(10 * MINUTE);
      const replicaB = h.build({});
      const [a, b] = await Promise.all([h.ops.resumeInterrupted(), replicaB.resumeInterrupted()]);
      expect([...a.resumed, ...b.resumed]).toEqual([]);
      expect([...a.unknown, ...b.unknown].map((r) => [r.id, r.state])).toEqual([[request.id, 'unknown']]);
      expect(upstreamCalls('DELETE', path)).toBe(0);
      expect(types(await h.events(), request.id)).toEqual(['requested', 'approved', 'executing', 'unknown']);
    },
  );
});

describe('an outcome that is not known', () => {
  /** A client that gives up after 150 ms, for answers the sandbox holds back. */
  function impatient(h: Harness): Operations {
    const client = sandboxClient(sandbox.url, {
      timeoutMs: 150,
    });
    closers.push(() => client.close());
    return h.build({ client });
  }
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  const DELETES = [
    [
      'folder',
      { kind: 'folder.delete', bucketId: DEMO.folders.lectures },
      '/v1/storage/bucket',
      () => sandbox.state().folders.map((f) => f._id),
      DEMO.folders.lectures,
    ],
    [
      'file',
      { kind: 'file.delete', fileId: DEMO.files.episode1 },
      '/v1/storage/bucket/file',
      () => sandbox.state().files.map((f) => f._id),
      DEMO.files.episode1,
    ],
    [
      'playlist',
      { kind: 'playlist.delete', playlistId: DEMO.playlists.gettingStarted },
      '/v1/playlist',
      () => sandbox.state().playlists.map((p) => p._id),
      DEMO.playlists.gettingStarted,
    ],
  ] as const;

  test.each(DELETES)(
    'a lead approves a %s delete whose answer comes after the timeout: one DELETE, unknown; Check now says already deleted',
    async (_k, input, path, ids, id) => {
      const h = await setup();
      const request = await pendingRequest(h, ava, input);
      sandbox.setFaults([{ path, method: 'DELETE', latencyAfterMs: 600, times: 1 }]);
      const ops = impatient(h);
      const decided = await ops.approve(request.id, lee);
      expect(decided.kind).toBe('executed');
      expect(decided.request).toMatchObject({ state: 'unknown', error: { name: 'TimeoutError' } });
      expect(upstreamCalls('DELETE', path)).toBe(1);
      expect(ids()).not.toContain(id);
      expect((await h.notified()).at(-1)?.state).toBe('unknown');
      const events = await h.events();
      expect(types(events, request.id)).toEqual(['requested', 'approved', 'executing', 'unknown']);
      expect(events.at(-1)?.error).toMatchObject({ name: 'TimeoutError' });

      h.advance(MINUTE);
      const checked = await h.ops.resolve(request.id, kim, 'check');
      expect(checked).toMatchObject({
        kind: 'resolved',
        request: {
          state: 'succeeded',
          decidedBy: kim,
          result: { resolved: 'check', outcome: 'already deleted' },
          error: null,
        },
      });
      expect(upstreamCalls('DELETE', path)).toBe(1);
      const after = await h.events();
      expect(types(after, request.id)).toEqual(['requested', 'approved', 'executing', 'unknown', 'resolved']);
      expect(after.at(-1)).toMatchObject({
        actor: kim,
        outcome: { way: 'check', state: 'succeeded', outcome: 'already deleted', note: null },
      });
    },
  );

  test.each(DELETES)(
    'Send again on a %s delete whose first answer was lost: its 404 is recorded as already deleted',
    async (_k, input, path) => {
      const h = await setup();
      const request = await pendingRequest(h, ava, input);
      sandbox.setFaults([{ path, method: 'DELETE', resetAfter: true, times: 1 }]);
      const decided = await h.ops.approve(request.id, lee);
      expect(decided.request).toMatchObject({ state: 'unknown', error: { name: 'NetworkError' } });
      expect(upstreamCalls('DELETE', path)).toBe(1);

      const again = await h.ops.resolve(request.id, kim, 'send-again');
      expect(again).toMatchObject({
        kind: 'resolved',
        request: {
          state: 'succeeded',
          decidedBy: kim,
          result: { resolved: 'send-again', outcome: 'already deleted' },
        },
      });
      expect(
        sandbox
          .requests()
          .filter((r) => r.method === 'DELETE')
          .map((r) => r.status),
      ).toEqual([200, 404]);
      const events = await h.events();
      expect(events.filter((e) => e.requestId === request.id).map((e) => [e.type, e.actor.name])).toEqual([
        ['requested', 'Ava'],
        ['approved', 'Lee'],
        ['executing', 'Lee'],
        ['unknown', 'vidops'],
        ['executing', 'Kim'],
        ['resolved', 'Kim'],
      ]);
      expect((await h.notified()).map((j) => j.state).slice(-3)).toEqual([
        'unknown',
        'executing',
        'succeeded',
      ]);
    },
  );

  test('a delete answered 503 did not take effect: unknown, then Check now finds it there and records not applied', async () => {
    const h = await setup();
    const bucketId = DEMO.folders.marketing;
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId });
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'DELETE', status: 503 }]);
    const decided = await h.ops.approve(request.id, lee);
    sandbox.clearFaults();
    expect(decided.request).toMatchObject({ state: 'unknown', error: { name: 'ServerError', status: 503 } });
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(1);
    // Right away, "still there" proves nothing: the service may still be working on it.
    const early = await h.ops.resolve(request.id, kim, 'check');
    expect(early).toMatchObject({ kind: 'unsettled', request: { state: 'unknown' } });
    expect(early.kind === 'unsettled' && early.reason).toContain(
      'still there, but the service may still be working on the delete; check again after 10:01:00 UTC',
    );
    h.advance(MINUTE);
    const checked = await h.ops.resolve(request.id, kim, 'check');
    expect(checked).toMatchObject({
      kind: 'resolved',
      request: {
        state: 'failed',
        decidedBy: kim,
        error: {
          name: 'NotApplied',
          message: `not applied: the folder ${bucketId} is still there (checked by Kim)`,
        },
      },
    });
    expect(sandbox.state().folders.map((f) => f._id)).toContain(bucketId);
  });

  test('Send again on a delete that never reached the service deletes it then', async () => {
    const h = await setup();
    const fileId = DEMO.files.teaser;
    const request = await pendingRequest(h, ava, { kind: 'file.delete', fileId });
    sandbox.setFaults([{ path: '/v1/storage/bucket/file', method: 'DELETE', status: 502, times: 1 }]);
    expect((await h.ops.approve(request.id, lee)).request?.state).toBe('unknown');
    const again = await h.ops.resolve(request.id, kim, 'send-again', 'the panel still lists it');
    expect(again).toMatchObject({
      kind: 'resolved',
      request: {
        state: 'succeeded',
        decisionNote: 'the panel still lists it',
        result: { resolved: 'send-again', outcome: 'deleted when sent again', answer: { deleted: true } },
      },
    });
    expect(sandbox.state().files.map((f) => f._id)).not.toContain(fileId);
  });

  test('a repeat that gets no clear answer either leaves it unknown, recorded again', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, {
      kind: 'playlist.delete',
      playlistId: DEMO.playlists.podcastHighlights,
    });
    sandbox.setFaults([{ path: '/v1/playlist', method: 'DELETE', status: 500, times: 2 }]);
    await h.ops.approve(request.id, lee);
    const again = await h.ops.resolve(request.id, kim, 'send-again');
    expect(again).toMatchObject({ kind: 'unsettled', request: { state: 'unknown', error: { status: 500 } } });
    expect(upstreamCalls('DELETE', '/v1/playlist')).toBe(2);
    expect(types(await h.events(), request.id)).toEqual([
      'requested',
      'approved',
      'executing',
      'unknown',
      'executing',
      'unknown',
    ]);
  });

  test('the first send of a delete that answers 404 stays a failure: it did not exist', async () => {
    const h = await setup();
    const bucketId = DEMO.folders.podcasts;
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId });
    await h.client.folders.delete({ bucketId });
    const decided = await h.ops.approve(request.id, lee);
    expect(decided.request).toMatchObject({ state: 'failed', error: { name: 'NotFoundError', status: 404 } });
  });

  test('who may settle: never the requester, never an agent (audited); a lead by hand with a note', async () => {
    const h = await setup({ agents: [ava.id, bob.id] });
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'DELETE', status: 504, times: 1 }]);
    await h.ops.approve(request.id, lee);
    expect(await h.ops.resolve(request.id, ava, 'applied', 'I looked')).toMatchObject({
      kind: 'refused',
      reason: 'You asked for this change, so someone else has to settle its outcome.',
    });
    expect(await h.ops.resolve(request.id, bob, 'send-again')).toMatchObject({
      kind: 'refused',
      reason: 'Only those who may approve folder.delete requests can settle their outcome.',
    });
    await expect(h.ops.resolve(request.id, lee, 'applied', '  ')).rejects.toBeInstanceOf(InputError);
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(1);
    const denied = (await h.events()).filter((e) => e.type === 'denied');
    expect(denied.map((e) => [e.actor.name, e.outcome])).toEqual([
      [
        'Ava',
        {
          action: 'resolve',
          reason: 'You asked for this change, so someone else has to settle its outcome.',
          said: { key: 'reqOwnSettle', params: [] },
        },
      ],
      [
        'Bob',
        {
          action: 'resolve',
          reason: 'Only those who may approve folder.delete requests can settle their outcome.',
          said: { key: 'svcOnlyApproversSettle', params: ['folder.delete'] },
        },
      ],
    ]);

    // The lead who approved it may settle it: they are not the requester.
    const marked = await h.ops.resolve(request.id, lee, 'not-applied', 'still in the panel at 10:05');
    expect(marked).toMatchObject({
      kind: 'resolved',
      request: {
        state: 'failed',
        decidedBy: lee,
        decisionNote: 'still in the panel at 10:05',
        error: { name: 'NotApplied', message: 'not applied, as Lee found on the service' },
      },
    });
    expect(await h.ops.resolve(request.id, kim, 'applied', 'no, it is gone')).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('cannot be settled: it was already approved by Lee and executed at'),
    });
    expect((await h.events()).filter((e) => e.type === 'resolved')).toHaveLength(1);
  });

  test('Check now where the service has no look-up says so and changes nothing', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    sandbox.setFaults([
      { path: '/v1/storage/bucket', method: 'DELETE', status: 500, times: 1 },
      { path: '/v1/storage/bucket/info', status: 404, body: '{"statusCode":404,"code":"ROUTE_NOT_FOUND"}' },
    ]);
    const unknown = (await h.ops.approve(request.id, lee)).request;
    const checked = await h.ops.resolve(request.id, kim, 'check');
    expect(checked).toMatchObject({
      kind: 'unsettled',
      request: { state: 'unknown', version: unknown?.version },
    });
    expect(checked.kind === 'unsettled' && checked.reason).toContain(
      'does not support looking up the folder',
    );
    expect((await h.store.getRequest(request.id))?.version).toBe(unknown?.version);
  });

  test('a create left unknown cannot be checked or sent again: a lead marks it by hand', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.create', title: 'Spring term' });
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'POST', resetAfter: true, times: 1 }]);
    const decided = await h.ops.approve(request.id, lee);
    expect(decided.request).toMatchObject({ state: 'unknown', error: { name: 'NetworkError' } });
    expect(upstreamCalls('POST', '/v1/storage/bucket')).toBe(1);
    expect(await h.ops.resolve(request.id, kim, 'check')).toMatchObject({
      kind: 'unsettled',
      reason: expect.stringContaining('cannot look up whether a "Create folder" was applied'),
    });
    expect(await h.ops.resolve(request.id, kim, 'send-again')).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('a second "Create folder" could do the work twice'),
    });
    expect(upstreamCalls('POST', '/v1/storage/bucket')).toBe(1);
    expect(await h.ops.resolve(request.id, kim, 'applied', 'Spring term is in the panel')).toMatchObject({
      kind: 'resolved',
      request: { state: 'succeeded', result: { outcome: 'applied, as Kim found on the service' } },
    });
  });

  test('an edit whose answer is lost keeps its retries and ends as it did (same end state)', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, {
      kind: 'folder.edit',
      bucketId: DEMO.folders.lectures,
      title: 'Renamed',
    });
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'PATCH', resetAfter: true, times: 1 }]);
    const decided = await h.ops.approve(request.id, lee);
    expect(decided.request?.state).toBe('succeeded');
    expect(upstreamCalls('PATCH', '/v1/storage/bucket')).toBe(2);
  });

  test('two leads pressing Send again at once send one DELETE', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'DELETE', resetAfter: true, times: 1 }]);
    await h.ops.approve(request.id, lee);
    const [a, b] = await Promise.all([
      h.ops.resolve(request.id, kim, 'send-again'),
      h.build({}).resolve(request.id, max, 'send-again'),
    ]);
    expect([a.kind, b.kind].sort()).toEqual(['refused', 'resolved']);
    expect(upstreamCalls('DELETE', '/v1/storage/bucket')).toBe(2);
    expect((await h.events()).filter((e) => e.type === 'resolved')).toHaveLength(1);
  });
});

describe('policy at start', () => {
  test('a POLICY_FILE that can never be satisfied is refused', async () => {
    const h = await setup();
    const policy = buildPolicy({ leads: [lee.id, kim.id], fileText: 'folder.delete: { quorum: 3 }' });
    expect(() => h.build({ policy })).toThrow(ConfigError);
    try {
      h.build({ policy });
    } catch (error) {
      expect(error instanceof ConfigError && error.problems).toEqual([
        'folder.delete needs approval from 3 distinct approvers, but only 2 can approve (U0LEAD1, U0LEAD2)',
      ]);
    }
  });
});

describe('prepare', () => {
  test.each<[string, PrepareInput, string]>([
    [
      'adding an address already there',
      { kind: 'whitelist.set', change: 'add', ips: ['185.8.172.1'] },
      '185.8.172.1 is already on the whitelist; nothing to add.',
    ],
    [
      'removing an address not there',
      { kind: 'whitelist.set', change: 'remove', ips: ['192.0.2.1', '192.0.2.2'] },
      '192.0.2.1, 192.0.2.2 are not on the whitelist; nothing to remove.',
    ],
    [
      'renaming a folder to the name it has',
      { kind: 'folder.edit', bucketId: DEMO.folders.marketing, title: 'Marketing clips' },
      `Folder ${DEMO.folders.marketing} already has this title and description; nothing would change.`,
    ],
    [
      'setting the opacity it already has',
      { kind: 'protect.set', changes: { opacity: 0.6 } },
      'Nothing would change: opacity is already 0.6.',
    ],
    [
      'deleting a folder that does not exist',
      { kind: 'folder.delete', bucketId: '6710a00000000000000009ff' },
      'Folder 6710a00000000000000009ff does not exist.',
    ],
    [
      'retrying a converted file',
      { kind: 'file.retry', fileId: DEMO.files.lecture1 },
      `File ${DEMO.files.lecture1} ("`,
    ],
    [
      'retrying a file still in the queue',
      { kind: 'file.retry', fileId: DEMO.waitingFileId },
      'is still in the conversion queue (status waiting)',
    ],
    [
      'a cover with no way to download it',
      {
        kind: 'file.edit',
        fileId: DEMO.files.lecture1,
        title: 'T',
        cover: {
          slackFileId: 'F1',
          filename: 'c.png',
          contentType: 'image/png',
          url: 'https://files.slack.com/c.png',
        },
      },
      'A cover image cannot be uploaded from here',
    ],
  ])('an agent is told why when %s', async (_name, input, message) => {
    const h = await setup();
    await h.client.whitelist.replace(['185.8.172.1']);
    // The service has shown a folder once, so a 404 of folder info now means "no such folder".
    await h.client.folders.info(DEMO.folders.lectures);
    const error = await h.ops.prepare(ava, input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect(error instanceof Error && messageOf(error)).toContain(message);
    expect(types(await h.events())).toEqual([]);
  });

  test('protect set keeps only the fields that change and shows before and after', async () => {
    const h = await setup();
    const prepared = await h.ops.prepare(ava, {
      kind: 'protect.set',
      changes: { opacity: 0.6, fontColor: '#e74c3c', link: { expireTime: '3h' } },
    });
    expect(prepared.params).toEqual({ changes: { fontColor: '#e74c3c', link: { expireTime: '3h' } } });
    expect(prepared.preview).toEqual({
      kind: 'protection',
      rows: [
        { field: 'fontColor', before: '#ffff00', after: '#e74c3c' },
        { field: 'link.expireTime', before: '2h', after: '3h' },
      ],
    });
  });

  test('a folder delete previews the title and file count, and warns about the files', async () => {
    const h = await setup();
    const prepared = await h.ops.prepare(ava, { kind: 'folder.delete', bucketId: DEMO.folders.lectures });
    const count = sandbox.state().files.filter((f) => f.bucketId === DEMO.folders.lectures).length;
    expect(prepared.preview).toEqual({
      kind: 'delete',
      resource: 'folder',
      id: DEMO.folders.lectures,
      title: 'Course lectures',
      filesCount: count,
    });
    expect(prepared.warnings.map(english)).toEqual([
      `Deleting folder ${DEMO.folders.lectures} ("Course lectures") also deletes its ${count} files; this cannot be undone.`,
    ]);
  });

  test('look-ups the service does not support leave a warning, not an error', async () => {
    const h = await setup();
    sandbox.setFaults([
      { path: '/v1/storage/bucket/info', status: 405 },
      { path: '/v1/analysis/content/video/all', status: 405 },
    ]);
    const folder = await h.ops.prepare(ava, { kind: 'folder.delete', bucketId: DEMO.folders.podcasts });
    const viewer = await h.ops.prepare(ava, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[0] });
    sandbox.clearFaults();
    expect(folder.preview).toMatchObject({ title: null, filesCount: null });
    expect(folder.warnings.map(english)).toEqual(['Could not look the folder up: the service answered 405.']);
    expect(viewer.warnings.map(english)).toEqual(['Could not look the viewer up: the service answered 405.']);
  });

  test('an ID that is not 24 hex digits is accepted with a warning', async () => {
    const h = await setup();
    sandbox.setFaults([{ path: '/v1/storage/bucket/file/info', status: 405 }]);
    const prepared = await h.ops.prepare(ava, { kind: 'file.delete', fileId: 'legacy-17' });
    sandbox.clearFaults();
    expect(prepared.params).toEqual({ fileId: 'legacy-17' });
    expect(prepared.warnings.map(english)[0]).toContain('file ID legacy-17 is not 24 hex digits');
  });
});

describe('every change operation reaches the service as the spec says', () => {
  const cover: CoverRef = {
    slackFileId: 'F0COVER',
    filename: 'cover.png',
    contentType: 'image/png',
    url: 'https://files.slack.com/files-pri/T0-F0COVER/cover.png',
  };
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);

  test.each<[string, PrepareInput, string, string]>([
    [
      'whitelist add',
      { kind: 'whitelist.set', change: 'add', ips: ['5.160.12.7', '2a00:1::1'] },
      'POST',
      '/v1/storage/dns/whitelist',
    ],
    [
      'protect set',
      { kind: 'protect.set', changes: { player: { offlineMode: false } } },
      'POST',
      '/v1/storage/protect/config',
    ],
    [
      'folder create',
      // As a form or the CLI reads what was typed: trimmed, an empty description no description.
      {
        kind: 'folder.create',
        ...OPERATION_SPECS['folder.create'].input.parse({ title: ' Spring 2025 ', description: '' }),
      },
      'POST',
      '/v1/storage/bucket',
    ],
    [
      'folder edit',
      { kind: 'folder.edit', bucketId: DEMO.folders.marketing, title: 'Ads' },
      'PATCH',
      '/v1/storage/bucket',
    ],
    [
      'folder delete',
      { kind: 'folder.delete', bucketId: DEMO.folders.marketing },
      'DELETE',
      '/v1/storage/bucket',
    ],
    [
      'file edit with a cover',
      { kind: 'file.edit', fileId: DEMO.files.lecture2, title: 'Week 2', cover },
      'POST',
      `/v1/storage/bucket/file/${DEMO.files.lecture2}`,
    ],
    [
      'file delete',
      { kind: 'file.delete', fileId: DEMO.files.lecture2 },
      'DELETE',
      '/v1/storage/bucket/file',
    ],
    [
      'file retry',
      { kind: 'file.retry', fileId: DEMO.failedFileIds[2] },
      'POST',
      '/v1/storage/bucket/file/queue/retry',
    ],
    [
      'playlist edit',
      {
        kind: 'playlist.edit',
        playlistId: DEMO.playlists.podcastHighlights,
        title: 'Best of',
        files: [{ _id: DEMO.files.episode2 }],
      },
      'PUT',
      '/v1/playlist',
    ],
    [
      'playlist delete',
      { kind: 'playlist.delete', playlistId: DEMO.playlists.podcastHighlights },
      'DELETE',
      '/v1/playlist',
    ],
    [
      'viewer unblock',
      { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[2] },
      'POST',
      '/v1/analysis/user/video/anomaly',
    ],
  ])('%s', async (_name, input, method, path) => {
    const fetched: CoverRef[] = [];
    const h = await setup({
      deps: {
        fetchCover: async (ref) => {
          fetched.push(ref);
          return png;
        },
      },
    });
    const prepared = await h.ops.prepare(ava, input);
    const submittedResult = await h.ops.submit(ava, prepared);
    const result =
      submittedResult.kind === 'pending'
        ? await h.ops.approve(submittedResult.request.id, lee)
        : submittedResult;
    expect(result).toMatchObject({ kind: 'executed', request: { state: 'succeeded', error: null } });
    const calls = sandbox.requests().filter((r) => r.method === method && r.path === path);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.status).toBe(200);
    if (input.kind === 'file.edit') {
      expect(fetched).toEqual([cover]);
      expect(calls[0]?.body).toMatchObject({
        fields: { fileId: DEMO.files.lecture2, title: 'Week 2' },
        files: [{ field: 'file', filename: 'cover.png', size: png.length, contentType: 'image/png' }],
      });
    }
    if (input.kind === 'folder.create') expect(calls[0]?.body).toEqual({ title: 'Spring 2025' });
  });
});

describe('listing and reading', () => {
  test('an agent sees their requests; a lead sees what awaits them, never their own', async () => {
    const h = await setup();
    const mine = await pendingRequest(h, ava, { kind: 'folder.create', title: 'A' });
    const leads = await pendingRequest(h, lee, { kind: 'folder.create', title: 'B' });
    await submitted(h, ava, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[0] });
    const forAva = await h.ops.listRequests(ava);
    expect(forAva.mine.map((r) => r.state)).toEqual(['pending', 'succeeded']);
    expect(forAva.mine[0]?.id).toBe(mine.id);
    expect(forAva.awaitingMe).toEqual([]);
    const forLee = await h.ops.listRequests(lee);
    expect(forLee.mine.map((r) => r.id)).toEqual([leads.id]);
    expect(forLee.awaitingMe.map((r) => r.id)).toEqual([mine.id]);
    const forKim = await h.ops.listRequests(kim);
    expect(new Set(forKim.awaitingMe.map((r) => r.id))).toEqual(new Set([mine.id, leads.id]));
  });

  test('a lead with more requests waiting than Home shows: the newest are read, the rest only counted', async () => {
    const h = await setup();
    const asked: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      asked.unshift((await pendingRequest(h, ava, { kind: 'folder.create', title: `F${i}` })).id);
      h.advance(MINUTE);
    }
    const forLee = await h.ops.listRequests(lee);
    expect(forLee.awaitingMe.map((r) => r.id)).toEqual(asked.slice(0, 15));
    expect(forLee.awaitingCount).toBe(20);
    const forAva = await h.ops.listRequests(ava);
    expect(forAva.mine.map((r) => r.id)).toEqual(asked.slice(0, 15));
    expect(forAva.openCount).toBe(20);
  });

  test('an agent who approves nothing opens Home without the pending requests being read', async () => {
    const h = await setup();
    await pendingRequest(h, bob, { kind: 'folder.create', title: 'B' });
    const pendingReads = jest.spyOn(h.store, 'listPending');
    const lists = jest.spyOn(h.store, 'listRequests');
    const forAva = await h.ops.homeRecords(ava, 10);
    expect(forAva.overview.awaitingMe).toEqual([]);
    expect(pendingReads).not.toHaveBeenCalled();
    expect(lists.mock.calls.filter(([filter]) => filter?.states?.includes('pending') === true)).toEqual([]);
  });

  test('the audit command is for leads; an agent is refused and the attempt is audited', async () => {
    const h = await setup();
    await submitted(h, ava, { kind: 'viewer.unblock', mobileNumber: DEMO.blockedMobiles[0] });
    await expect(h.ops.recentAudit(ava, 10)).rejects.toBeInstanceOf(PolicyDeniedError);
    const last = await h.ops.recentAudit(lee, 2);
    expect(last.map((e) => e.type)).toEqual(['succeeded', 'denied']);
  });

  test('deletes want the ID typed to confirm; other changes want nothing', async () => {
    const h = await setup();
    const del = await h.ops.prepare(ava, { kind: 'file.delete', fileId: DEMO.files.lecture3 });
    const edit = await h.ops.prepare(ava, {
      kind: 'folder.edit',
      bucketId: DEMO.folders.lectures,
      title: 'Lectures',
    });
    expect(h.ops.confirmationFor({ kind: del.operation, ...del.params })).toBe(DEMO.files.lecture3);
    expect(h.ops.confirmationFor({ kind: edit.operation, ...edit.params })).toBeNull();
  });

  test('the approval message reference is kept without an audit event, a notification or a new updatedAt', async () => {
    const h = await setup();
    const request = await pendingRequest(h, ava, { kind: 'folder.create', title: 'A' });
    const before = (await h.notified()).length;
    h.advance(MINUTE);
    const updated = await h.ops.attachSlackMessage(request.id, {
      channel: 'C0APPROVE',
      ts: '1700000000.000100',
    });
    expect(updated?.slack).toEqual({ channel: 'C0APPROVE', ts: '1700000000.000100' });
    expect(updated?.updatedAt).toBe(request.updatedAt);
    expect(types(await h.events())).toEqual(['requested']);
    expect((await h.notified()).length).toBe(before);
    expect((await h.ops.approve(request.id, lee)).kind).toBe('executed');
  });

  test('the Home tab shows a lead the whole log and an agent only their own part of it', async () => {
    const h = await setup();
    const mine = await pendingRequest(h, ava, { kind: 'folder.create', title: 'A' });
    await pendingRequest(h, bob, { kind: 'folder.create', title: 'B' });
    await h.ops.approve(mine.id, lee);

    const forLee = await h.ops.homeRecords(lee, 10);
    expect(forLee.audit.scope).toBe('all');
    expect(forLee.audit.events).toEqual(await h.events());
    expect(forLee.overview.awaitingMe).toHaveLength(1);

    const forAva = await h.ops.homeRecords(ava, 10);
    expect(forAva.audit.scope).toBe('mine');
    // Her request's whole story (a lead's approval included), nothing of Bob's.
    expect(new Set(forAva.audit.events.map((e) => e.requestId))).toEqual(new Set([mine.id]));
    expect(types(forAva.audit.events)).toEqual(['requested', 'approved', 'executing', 'succeeded']);
    expect((await h.ops.homeRecords(ava, 2)).audit.events.map((e) => e.type)).toEqual([
      'executing',
      'succeeded',
    ]);
  });

  test('an edit form opens with the record, with a note when the look-up fails, and not for a record that is not there', async () => {
    const h = await setup();
    const found = await h.ops.currentFolder(DEMO.folders.lectures);
    expect(found.value?.id).toBe(DEMO.folders.lectures);

    sandbox.setFaults([{ path: '/v1/storage/bucket/info', method: 'GET', status: 503 }]);
    expect(await h.ops.currentFolder(DEMO.folders.lectures)).toEqual({
      value: null,
      note: 'the service answered 503.',
    });
    sandbox.setFaults([]);

    // The route answered 200 above, so its 404 now means the folder does not exist.
    const missing = '6710a00000000000000009ff';
    const refused = await h.ops.currentFolder(missing).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InputError);
    expect(messageOf(refused as Error)).toBe(`There is no folder ${missing} on the service.`);
  });

  test('a refusal outside any request is audited as denied, with what was tried', async () => {
    const h = await setup();
    await h.ops.auditRefusal(
      { id: 'U0OUTSIDER', name: 'Oscar' },
      { operation: 'button', target: 'button approve', params: { actionId: 'approve' } },
      'block_actions',
      'not on the team',
    );
    const [event] = await h.events();
    expect(event).toMatchObject({
      type: 'denied',
      actor: { id: 'U0OUTSIDER', name: 'Oscar' },
      operation: 'button',
      target: 'button approve',
      params: { actionId: 'approve' },
      requestId: null,
      outcome: { action: 'block_actions', reason: 'not on the team' },
    });
  });
});
