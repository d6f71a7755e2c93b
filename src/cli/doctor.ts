import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WebClient } from '@slack/web-api';
import { type Config, loadConfig } from '../config.js';
import { createHasher } from '../core/audit-chain.js';
import { checkpointOrigin } from '../core/checkpoint.js';
import { ConfigError } from '../core/errors.js';
import { redactError } from '../core/mask.js';
import type { Policy } from '../core/policy.js';
import { list, num } from '../i18n/format.js';
import type { Lang } from '../i18n/lang.js';
import type { DoctorCheck } from '../i18n/messages/operator.js';
import { loadPolicy, openVideoClient, readPolicyFile } from '../parts.js';
import { loadSigningKey } from '../services/audit-keys.js';
import { fileMemory, memoryPathFor } from '../services/checkpoint-memory.js';
import { createCheckpointer } from '../services/checkpoints.js';
import { BOT_SCOPES } from '../slack/scopes.js';
import { openStore, parseStoreUrl, type Store } from '../store/index.js';
import { DatabaseTooNewError, MIGRATIONS, refuseNewer } from '../store/migrations.js';
import type { AuditRun } from './audit.js';
import { resolveDatabaseUrl } from './context.js';
import { cliTime } from './format.js';

/**
 * `vidops doctor [--json]`: checks what a running vidops needs, one line each with its fix. Exit 0
 * when every check passes (a warning passes, said with its fix), 1 otherwise. It reads and changes nothing (no migration, no signature).
 * It speaks the CLI's language (`--lang`, else `LANG`); `--json` names each check by its stable
 * English name, its detail and fix in that language.
 * @see docs/operations.md, "Doctor"
 */

export interface Finding {
  check: DoctorCheck;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** What to do about it; empty when ok without a warning. */
  fix: string;
  /** Works, but worth a look (a slow service): exit 0 all the same. */
  warning?: true;
}

/** A whitelist read slower than this is a warning: every reply that waits on the service feels it. */
export const SLOW_VIDEO_MS = 1_000;

/** The clocks of this host and of the database may differ by this much (replicas time leases in minutes). */
const CLOCK_SKEW_MS = 5_000;

const pass = (check: DoctorCheck, detail: string): Finding => ({ check, ok: true, detail, fix: '' });
const fault = (check: DoctorCheck, detail: string, fix: string): Finding => ({
  check,
  ok: false,
  detail,
  fix,
});

/** What the checks after the configuration share. */
interface Doctor {
  run: AuditRun;
  lang: Lang;
  t: Lang['t']['operator'];
  config: Config;
  clock: () => Date;
  store: Store | null;
  web: WebClient;
}

export async function doctor(run: AuditRun, clock: () => Date, lang: Lang): Promise<number> {
  const t = lang.t.operator;
  const findings: Finding[] = [];
  let config: Config;
  try {
    config = loadConfig(run.env);
    findings.push(pass('configuration', t.docConfigOk));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    findings.push(fault('configuration', t.docConfigBad(why(error)), t.docConfigFix));
    return report(run, lang, findings);
  }
  config = { ...config, databaseUrl: resolveDatabaseUrl(config.databaseUrl, run.cwd) };
  const web = new WebClient(config.slack.botToken, {
    ...(config.slack.apiUrl === undefined ? {} : { slackApiUrl: config.slack.apiUrl }),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  const d: Doctor = { run, lang, t, config, clock, store: null, web };
  try {
    findings.push(await database(d));
    const slack = await slackToken(d);
    findings.push(...slack);
    if (slack.every((f) => f.ok)) findings.push(...(await channels(d)));
    findings.push(...(await signingKey(d)));
    findings.push(await videoService(d));
    findings.push(await clockCheck(d));
    findings.push(...(await people(d)));
  } finally {
    await d.store?.close();
  }
  return report(run, lang, findings);
}

function report(run: AuditRun, lang: Lang, findings: readonly Finding[]): number {
  const t = lang.t.operator;
  const ok = findings.every((f) => f.ok);
  if (run.flags.json === true) {
    run.out(JSON.stringify({ ok, checks: findings }));
  } else {
    for (const f of findings) {
      const check = t.docCheck(f.check);
      const line = f.warning ? t.docWarnLine : f.ok ? t.docOkLine : t.docFailLine;
      run.out(line(check, f.detail, f.fix));
    }
    const failed = findings.filter((f) => !f.ok).length;
    const warned = findings.filter((f) => f.warning).length;
    const passed = warned === 0 ? t.docAllPassed : t.docPassedWarned(num(lang, warned));
    run.out(ok ? passed : t.docSomeFailed(num(lang, failed), num(lang, findings.length)));
  }
  return ok ? 0 : 1;
}

/** An error on one line: a check is one line, and a configuration error lists its problems. */
function why(error: unknown): string {
  const text = error instanceof ConfigError ? error.problems.join('; ') : redactError(error).message;
  return text.replace(/\s*\n\s*/g, ' ');
}

/** The database answers, and its schema is the one this build writes. */
async function database(d: Doctor): Promise<Finding> {
  const { t, lang } = d;
  const name = 'database';
  try {
    const location = parseStoreUrl(d.config.databaseUrl);
    if (location.kind === 'sqlite' && location.path !== ':memory:' && !(await exists(location.path))) {
      return fault(name, t.docDbMissing(location.path), t.docDbMissingFix);
    }
    // Opened as it is: the doctor applies no migration.
    d.store = await openStore(d.config.databaseUrl, {
      hash: createHasher(d.config.auditHmacKey),
      migrate: false,
    });
    await d.store.ping();
    const applied = await d.store.schemaVersions();
    const migrations = MIGRATIONS[location.kind];
    refuseNewer(migrations, applied);
    const pending = migrations.filter((m) => !applied.includes(m.version));
    if (pending.length > 0) {
      return fault(
        name,
        t.docDbPending(num(lang, pending.length), num(lang, migrations.length)),
        t.docDbPendingFix,
      );
    }
    return pass(name, t.docDbOk(num(lang, applied.at(-1) ?? 0)));
  } catch (error) {
    if (error instanceof DatabaseTooNewError) {
      const unknown = list(
        lang,
        error.unknown.map((v) => num(lang, v)),
      );
      return fault(name, t.docDbTooNew(unknown, num(lang, error.known)), t.docDbTooNewFix);
    }
    await d.store?.close().catch(() => undefined);
    d.store = null;
    return fault(name, t.docDbDown(why(error)), t.docDbDownFix);
  }
}

/** The token works (auth.test) and was granted every scope of the manifest (`x-oauth-scopes`). */
async function slackToken(d: Doctor): Promise<Finding[]> {
  const { t } = d;
  try {
    const answer = await d.web.auth.test();
    const granted = new Set(answer.response_metadata?.scopes ?? []);
    const missing = BOT_SCOPES.filter((s) => !granted.has(s));
    return [
      pass('slack token', t.docSlackOk(answer.user ?? '?', answer.team ?? '?')),
      missing.length === 0
        ? pass('slack scopes', t.docScopesOk(num(d.lang, BOT_SCOPES.length)))
        : fault('slack scopes', t.docScopesMissing(missing.join(', ')), t.docScopesFix),
    ];
  } catch (error) {
    return [fault('slack token', t.docSlackFailed(why(error)), t.docSlackFix)];
  }
}

/** The bot is a member of the audit and approval channels (`conversations.info`'s `is_member`). */
async function channels(d: Doctor): Promise<Finding[]> {
  const wanted = [
    ['audit channel', d.config.auditChannel],
    ['approval channel', d.config.approvalChannel],
  ] as const;
  const distinct = wanted.filter(([, id], i) => wanted.findIndex(([, other]) => other === id) === i);
  const { t } = d;
  return Promise.all(
    distinct.map(async ([name, id]): Promise<Finding> => {
      try {
        const { channel } = await d.web.conversations.info({ channel: id });
        const shown = channel?.name ?? id;
        if (channel?.is_member === true) return pass(name, t.docChannelIn(id, shown));
        return fault(name, t.docChannelOut(id, shown), t.docChannelInvite(shown));
      } catch (error) {
        return fault(name, t.docChannelError(id, why(error)), t.docChannelFix);
      }
    }),
  );
}

/** The key and its state file are readable by their owner only, and the database extends what the key signed. */
async function signingKey(d: Doctor): Promise<Finding[]> {
  const { config, t } = d;
  const name = 'signing key';
  if (config.auditSigningKeyFile === undefined) return [pass(name, t.docKeyUnset)];
  const keyFile = resolve(d.run.cwd, config.auditSigningKeyFile);
  const statePath = memoryPathFor(
    keyFile,
    config.auditCheckpointStateFile && resolve(d.run.cwd, config.auditCheckpointStateFile),
  );
  const findings: Finding[] = [];
  for (const [what, path] of [
    [name, keyFile],
    ['signing key state', statePath],
  ] as const) {
    const mode = await stat(path).then(
      (s) => s.mode & 0o777,
      () => null,
    );
    if (mode === null) {
      findings.push(
        what === name
          ? fault(what, t.docKeyUnreadable(path), t.docKeyUnreadableFix)
          : pass(what, t.docStateNotYet(path)),
      );
    } else if ((mode & 0o077) !== 0) {
      findings.push(fault(what, t.docModeOpen(path, mode.toString(8)), t.docModeFix(path)));
    } else findings.push(pass(what, t.docModeOk(path, mode.toString(8))));
  }
  if (findings.some((f) => !f.ok) || d.store === null) return findings;
  try {
    const { key } = await loadSigningKey(keyFile, config.auditLogName);
    const checkpointer = createCheckpointer({
      store: d.store,
      signer: key,
      origin: checkpointOrigin(config.auditLogName),
      hash: createHasher(config.auditHmacKey),
      memory: fileMemory(statePath),
      clock: d.clock,
      every: { events: null, ms: null },
    });
    const refused = await checkpointer.checkExtends();
    findings.push(
      refused === null
        ? pass('signing key and database', t.docExtends)
        : fault('signing key and database', t.docRefused(refused.reason), t.docRefusedFix),
    );
  } catch (error) {
    findings.push(fault('signing key and database', t.docKeyError(why(error)), t.docKeyErrorFix));
  }
  return findings;
}

/** A documented read (the whitelist, op 2) with the keys given, timed: slow is a warning, not a failure. */
async function videoService(d: Doctor): Promise<Finding> {
  const { t, lang } = d;
  const name = 'video service';
  if (d.store === null) return fault(name, t.docNotChecked, t.docFixFirst);
  const client = openVideoClient(d.config.video, d.store);
  const started = performance.now();
  try {
    const ips = await client.whitelist.get();
    const ms = Math.round(performance.now() - started);
    const [url, took, count] = [d.config.video.url, num(lang, ms), num(lang, ips.length)];
    if (ms <= SLOW_VIDEO_MS) return pass(name, t.docVideoOk(url, took, count));
    const detail = t.docVideoSlow(url, took, num(lang, SLOW_VIDEO_MS), count);
    return { check: name, ok: true, warning: true, detail, fix: t.docVideoSlowFix };
  } catch (error) {
    return fault(name, t.docVideoFailed(d.config.video.url, why(error)), t.docVideoFix);
  } finally {
    client.close();
  }
}

/** This host's clock against the database's: replicas judge each other's leases by the clock. */
async function clockCheck(d: Doctor): Promise<Finding> {
  const { t, lang } = d;
  const name = 'clock';
  if (d.store === null) return fault(name, t.docNotChecked, t.docFixFirst);
  const [db, here] = [await d.store.databaseNow(), d.clock()];
  const skew = here.getTime() - db.getTime();
  if (Number.isNaN(skew) || Math.abs(skew) > CLOCK_SKEW_MS) {
    const [hereText, dbText] = [cliTime(lang, here.toISOString()), cliTime(lang, db.toISOString())];
    return fault(name, t.docClockSkew(hereText, dbText, num(lang, Math.round(skew / 1000))), t.docClockFix);
  }
  return pass(name, t.docClockOk(num(lang, CLOCK_SKEW_MS / 1000), num(lang, skew)));
}

/** Every user and user group the policy names, known to Slack (`users.info`, `usergroups.users.list`). */
async function people(d: Doctor): Promise<Finding[]> {
  const { t, lang } = d;
  let policy: Policy;
  try {
    policy = await loadPolicy(d.config, (path) => readPolicyFile(resolve(d.run.cwd, path)));
  } catch (error) {
    return [fault('policy', t.docPolicyBad(why(error)), t.docPolicyFix)];
  }
  const ids = new Set<string>([...policy.leads, ...(policy.agents ?? [])]);
  for (const rule of Object.values(policy.rules)) {
    if (Array.isArray(rule.allowed)) for (const id of rule.allowed) ids.add(id);
    for (const id of [...rule.approvers, ...rule.followUp.escalateTo]) ids.add(id);
  }
  const unknown: string[] = [];
  for (const id of ids) {
    const known = await knownToSlack(d.web, id);
    if (!known) unknown.push(id);
  }
  if (unknown.length > 0) {
    return [fault('policy people', t.docPeopleUnknown(unknown.join(', ')), t.docPeopleFix)];
  }
  return [pass('policy people', t.docPeopleOk(num(lang, ids.size)))];
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function knownToSlack(web: WebClient, id: string): Promise<boolean> {
  try {
    if (id.startsWith('S')) {
      await web.usergroups.users.list({ usergroup: id });
      return true;
    }
    const { user } = await web.users.info({ user: id });
    return user !== undefined && user.deleted !== true;
  } catch {
    return false;
  }
}
