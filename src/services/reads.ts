import { failureInWords, NotFoundError } from '../client/errors.js';
import type { Answer, Folder, Playlist, VideoClient, VideoFile } from '../client/types.js';
import { isCaller } from '../core/actor.js';
import { isPastExpiry } from '../core/approvals.js';
import type { BatchStep } from '../core/batch.js';
import { awaitsReview } from '../core/break-glass.js';
import { delegatedLead } from '../core/delegation.js';
import { InputError } from '../core/errors.js';
import type { Actor, AuditEvent, OperationRequest, SlackRef } from '../core/model.js';
import { TERMINAL_STATES } from '../core/model.js';
import { approvableOperations, mayApprove, mayRun, type Policy, type PolicyActor } from '../core/policy.js';
import type { ProtectionConfig } from '../core/protection.js';
import { say } from '../core/said.js';
import type { ResourceKind } from '../core/validate/ids.js';
import type { Store } from '../store/store.js';
import type { DelegationService, DelegationsOverview } from './delegation.js';
import type { Directory, RequestsOverview } from './types.js';

/**
 * The reads of vidops (requests, the audit events a person may see, the upstream's current
 * settings and records) and the one piece of bookkeeping the Slack notifier does (where a request's
 * approval message lives). None of them notifies anyone or changes what a person asked for, so
 * they are built before the notifier, which reads through them; `createOperations` includes them.
 * @see docs/architecture.md, "Composition root"
 */

/** Lost compare-and-set races retried before giving up; each retry reloads the request. */
export const MAX_CAS_ATTEMPTS = 8;
const RECENT_FINISHED = 10;
/** The most open requests, and requests awaiting a person, that Home or `requests` shows (HOME_LIMITS). */
const OPEN_READ = 15;
const AWAITING_READ = 15;
/** How far back an agent's own activity is looked for in the log. */
const OWN_ACTIVITY_SCAN = 300;

/**
 * The record an edit form starts from, or why it could not be read: a look-up never vetoes the
 * form, which then opens empty with the note.
 */
export type CurrentRecord<T> = { value: T; note?: undefined } | { value: null; note: string };

/** What a person's Home tab shows of vidops' own records. */
export interface HomeRecords {
  overview: RequestsOverview;
  /** `all`: the last events of the log; `mine`: the events about the person and their requests. */
  audit: { scope: 'all' | 'mine'; events: AuditEvent[] };
}

export interface Reads {
  getRequest(id: string): Promise<OperationRequest | null>;
  listRequests(actor: Actor): Promise<RequestsOverview>;
  /**
   * Records where the approval message lives; not audited and no notification job (it is the
   * notifier's own doing), and `updatedAt` is left as it was.
   */
  attachSlackMessage(id: string, ref: SlackRef): Promise<OperationRequest | null>;
  /**
   * The person's requests, and the last `events` audit events they may see: the whole log for
   * whoever the policy lets run `audit` (leads), otherwise only their own actions and requests.
   */
  homeRecords(actor: Actor, events: number): Promise<HomeRecords>;
  /** The IP whitelist as the service has it now (op 2). */
  whitelist(): Promise<string[]>;
  /** The protection settings as the service has them now (op 4), with everything it sent in `raw`. */
  protection(): Promise<ProtectionConfig & Answer>;
  /**
   * The folder, file or playlist an edit form starts from. A failed look-up gives a note instead
   * (the form still works); a record the service says does not exist is the person's mistake
   * (InputError), said plainly instead of a blank form.
   */
  currentFolder(bucketId: string): Promise<CurrentRecord<Folder>>;
  currentFile(fileId: string): Promise<CurrentRecord<VideoFile>>;
  currentPlaylist(playlistId: string): Promise<CurrentRecord<Playlist>>;
  /** Break-glass changes no lead has reviewed yet, newest first. */
  unreviewedBreakGlass(): Promise<OperationRequest[]>;
  /** A batch's steps (`viewer.unblock-many`), in list order: its message and Retry the failed read them. */
  batchSteps(requestId: string): Promise<BatchStep[]>;
  /** The delegation a person gave and those they hold, in force now. */
  delegations(actor: Actor): Promise<DelegationsOverview>;
}

export interface ReadsDeps {
  store: Store;
  client: VideoClient;
  policy: Policy;
  directory: Directory;
  clock: () => Date;
  /** Delegations as approvals count them: sealed, and not ended by the audit log. */
  delegation: Pick<DelegationService, 'inForce' | 'inForceTo'>;
}

/**
 * The person as the policy sees them: ID, the watched user groups they belong to, and the front
 * end. A `Caller` (core/actor.ts) brings its groups from the edge; only a bare `Actor` (tools,
 * tests) sends the services to the directory.
 * @see docs/architecture.md, "Each request's context once"
 */
export async function policyActorOf(directory: Directory, actor: Actor): Promise<PolicyActor> {
  if (isCaller(actor)) return actor;
  const groups = await directory.groupsOf(actor.id);
  return actor.via === undefined ? { id: actor.id, groups } : { id: actor.id, groups, via: actor.via };
}

/** Reads a record for an edit form; see {@link Reads.currentFolder}. */
async function currentOrNote<T>(
  kind: ResourceKind,
  id: string,
  read: () => Promise<T>,
): Promise<CurrentRecord<T>> {
  try {
    return { value: await read() };
  } catch (error) {
    // Only a known route's 404 (NotFoundError) stops the form.
    if (error instanceof NotFoundError) throw new InputError(say.svcNotOnService(kind, id));
    return { value: null, note: `${failureInWords(error)}.` };
  }
}

export function createReads(deps: ReadsDeps): Reads {
  const { store, client, policy, directory, clock, delegation } = deps;

  async function listRequests(actor: Actor): Promise<RequestsOverview> {
    const who = await policyActorOf(directory, actor);
    const now = clock();
    const [open, finished, awaiting] = await Promise.all([
      store.listOpenRequests(actor.id, OPEN_READ),
      store.listRequests({ requesterId: actor.id, states: TERMINAL_STATES, limit: RECENT_FINISHED }),
      awaitingOf(actor, who, now),
    ]);
    return {
      mine: [...open.items, ...finished],
      awaitingMe: awaiting.items,
      inPlace: awaiting.inPlace,
      openCount: open.total,
      awaitingCount: awaiting.total,
    };
  }

  /**
   * The newest pending requests this actor may decide, read only from the operations they (or a
   * lead whose place they hold) approve; none read at all for someone who approves nothing.
   */
  async function awaitingOf(
    actor: Actor,
    who: PolicyActor,
    now: Date,
  ): Promise<{ items: OperationRequest[]; inPlace: string[]; total: number }> {
    // Those a delegate may approve in a lead's place are awaiting them too.
    const leads = await delegation.inForceTo(actor.id);
    const operations = new Set(approvableOperations(policy, who));
    for (const d of leads) {
      for (const op of approvableOperations(policy, { id: d.lead.id, groups: d.groups })) operations.add(op);
    }
    if (operations.size === 0) return { items: [], inPlace: [], total: 0 };
    const pending = await store.listPending({
      operations: [...operations],
      notRequesterId: actor.id,
      now: now.toISOString(),
      limit: AWAITING_READ,
    });
    const items: OperationRequest[] = [];
    const inPlace: string[] = [];
    for (const r of pending.items) {
      if (isPastExpiry(r, now)) continue;
      if (mayApprove(policy, r, who).ok) items.push(r);
      else if (delegatedLead(policy, r, actor, leads)?.ok === true) {
        items.push(r);
        inPlace.push(r.id);
      }
    }
    // The count and the page are two reads: never say fewer than are shown.
    const total = Math.max(items.length, pending.total - (pending.items.length - items.length));
    return { items, inPlace, total };
  }

  return {
    getRequest: (id) => store.getRequest(id),

    listRequests,

    async attachSlackMessage(id, ref) {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
        const request = await store.getRequest(id);
        if (!request) return null;
        if (request.slack?.channel === ref.channel && request.slack.ts === ref.ts) return request;
        // Not a change of the request: `updatedAt` stays when the state changed (messages show it,
        // and the sweep measures how long a request has been executing from it).
        const done = await store.transition(id, request.version, { slack: ref }, request.updatedAt, []);
        if (done) return done.request;
      }
      return store.getRequest(id);
    },

    async homeRecords(actor, last) {
      const [overview, who] = await Promise.all([listRequests(actor), policyActorOf(directory, actor)]);
      if (mayRun(policy, 'audit', who)) {
        return { overview, audit: { scope: 'all', events: await store.listAudit({ last }) } };
      }
      const mine = new Set(overview.mine.map((r) => r.id));
      const recent = await store.listAudit({ last: OWN_ACTIVITY_SCAN });
      const events = recent
        .filter((e) => e.actor.id === actor.id || (e.requestId !== null && mine.has(e.requestId)))
        .slice(-last);
      return { overview, audit: { scope: 'mine', events } };
    },

    async unreviewedBreakGlass() {
      const list = await store.listRequests({ breakGlassUnreviewed: true, limit: 200 });
      return list.filter(awaitsReview);
    },

    batchSteps: (requestId) => store.listSteps(requestId),

    async delegations(actor) {
      const [given, received] = await Promise.all([
        delegation.inForce({ leadId: actor.id }),
        delegation.inForce({ delegateId: actor.id }),
      ]);
      return { given: given[0] ?? null, received };
    },

    whitelist: () => client.whitelist.get(),
    protection: () => client.protection.get(),
    currentFolder: (bucketId) => currentOrNote('folder', bucketId, () => client.folders.info(bucketId)),
    currentFile: (fileId) => currentOrNote('file', fileId, () => client.files.info(fileId)),
    currentPlaylist: (playlistId) =>
      currentOrNote('playlist', playlistId, () => client.playlists.info(playlistId)),
  };
}
