import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WebClient } from '@slack/web-api';
import { type Config, loadConfig } from '../config.js';
import { createHasher } from '../core/audit-chain.js';
import { checkpointOrigin } from '../core/checkpoint.js';
import { ConfigError } from '../core/errors.js';
import { redactError } from '../core/mask.js';
import type { Policy } from '../core/policy.js';
import { loadPolicy, openVideoClient, readPolicyFile } from '../parts.js';
import { loadSigningKey } from '../services/audit-keys.js';
import { fileMemory, memoryPathFor } from '../services/checkpoint-memory.js';
import { createCheckpointer } from '../services/checkpoints.js';
import { BOT_SCOPES } from '../slack/scopes.js';
import { openStore, parseStoreUrl, type Store } from '../store/index.js';
import { DatabaseTooNewError, MIGRATIONS, refuseNewer } from '../store/migrations.js';
import type { AuditRun } from './audit.js';
import { resolveDatabaseUrl } from './context.js';

/**
 * `vidops doctor [--json]`: checks what a running vidops needs, one line each with its fix. Exit 0
 * when every check passes, 1 otherwise. It reads and changes nothing (no migration, no signature).
 * @see docs/operations.md, "Doctor"
 */

export interface Finding {
  check: string;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** What to do about it; empty when ok. */
  fix: string;
}

/** The clocks of this host and of the database may differ by this much (replicas time leases in minutes). */
const CLOCK_SKEW_MS = 5_000;

const pass = (check: string, detail: string): Finding => ({ check, ok: true, detail, fix: '' });
const fault = (check: string, detail: string, fix: string): Finding => ({ check, ok: false, detail, fix });

/** What the checks after the configuration share. */
interface Doctor {
  run: AuditRun;
  config: Config;
  clock: () => Date;
  store: Store | null;
  web: WebClient;
}

export async function doctor(run: AuditRun, clock: () => Date): Promise<number> {
  const findings: Finding[] = [];
  let config: Config;
  try {
    config = loadConfig(run.env);
    findings.push(pass('configuration', 'every variable parses'));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    findings.push(
      fault(
        'configuration',
        error.problems.join('; '),
        'set the variables named (.env.example lists them all), then run vidops doctor again; the other checks need them',
      ),
    );
    return report(run, findings);
  }
  config = { ...config, databaseUrl: resolveDatabaseUrl(config.databaseUrl, run.cwd) };
  const web = new WebClient(config.slack.botToken, {
    ...(config.slack.apiUrl === undefined ? {} : { slackApiUrl: config.slack.apiUrl }),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  const d: Doctor = { run, config, clock, store: null, web };
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
  return report(run, findings);
}

function report(run: AuditRun, findings: readonly Finding[]): number {
  const ok = findings.every((f) => f.ok);
  if (run.flags.json === true) {
    run.out(JSON.stringify({ ok, checks: findings }));
  } else {
    for (const f of findings) {
      run.out(f.ok ? `ok    ${f.check}: ${f.detail}` : `FAIL  ${f.check}: ${f.detail} — fix: ${f.fix}`);
    }
    run.out(
      ok
        ? 'All checks passed.'
        : `${findings.filter((f) => !f.ok).length} of ${findings.length} checks failed.`,
    );
  }
  return ok ? 0 : 1;
}

function why(error: unknown): string {
  return redactError(error).message;
}

/** The database answers, and its schema is the one this build writes. */
async function database(d: Doctor): Promise<Finding> {
  const name = 'database';
  try {
    const location = parseStoreUrl(d.config.databaseUrl);
    if (location.kind === 'sqlite' && location.path !== ':memory:' && !(await exists(location.path))) {
      return fault(
        name,
        `there is no database at ${location.path}`,
        'check DATABASE_URL; vidops makes the file at its first start',
      );
    }
    // Opened as it is: the doctor applies no migration.
    d.store = await openStore(d.config.databaseUrl, {
      hash: createHasher(d.config.auditHmacKey),
      migrate: false,
    });
    await d.store.ping();
    const applied = await d.store.schemaVersions();
    const list = MIGRATIONS[location.kind];
    refuseNewer(list, applied);
    const pending = list.filter((m) => !applied.includes(m.version));
    if (pending.length > 0) {
      return fault(
        name,
        `answers, but ${pending.length} of ${list.length} migrations are not applied`,
        'start vidops (npm start): it applies them at start, once, even with replicas starting together',
      );
    }
    return pass(name, `answers; schema current (version ${applied.at(-1) ?? 0})`);
  } catch (error) {
    if (error instanceof DatabaseTooNewError) {
      return fault(
        name,
        error.message,
        'run the vidops version that wrote it, or restore a backup taken before the upgrade',
      );
    }
    await d.store?.close().catch(() => undefined);
    d.store = null;
    return fault(
      name,
      `does not answer: ${why(error)}`,
      'check DATABASE_URL and that the database server runs',
    );
  }
}

/** The token works (auth.test) and was granted every scope of the manifest (`x-oauth-scopes`). */
async function slackToken(d: Doctor): Promise<Finding[]> {
  try {
    const answer = await d.web.auth.test();
    const granted = new Set(answer.response_metadata?.scopes ?? []);
    const missing = BOT_SCOPES.filter((s) => !granted.has(s));
    return [
      pass('slack token', `works: bot ${answer.user ?? '?'} in workspace ${answer.team ?? '?'}`),
      missing.length === 0
        ? pass('slack scopes', `every scope the manifest asks for (${BOT_SCOPES.length})`)
        : fault(
            'slack scopes',
            `the token lacks ${missing.join(', ')}`,
            'add them under OAuth & Permissions (or update the app from manifest.yml), reinstall the app, and set the new SLACK_BOT_TOKEN',
          ),
    ];
  } catch (error) {
    return [
      fault(
        'slack token',
        `auth.test failed: ${why(error)}`,
        'set SLACK_BOT_TOKEN to the Bot User OAuth Token (xoxb-…) of the installed app; check SLACK_API_URL when set',
      ),
    ];
  }
}

/** The bot is a member of the audit and approval channels (`conversations.info`'s `is_member`). */
async function channels(d: Doctor): Promise<Finding[]> {
  const wanted = [
    ['audit channel', d.config.auditChannel],
    ['approval channel', d.config.approvalChannel],
  ] as const;
  const distinct = wanted.filter(([, id], i) => wanted.findIndex(([, other]) => other === id) === i);
  return Promise.all(
    distinct.map(async ([name, id]): Promise<Finding> => {
      try {
        const { channel } = await d.web.conversations.info({ channel: id });
        if (channel?.is_member === true) return pass(name, `the bot is in ${id} (#${channel.name ?? id})`);
        return fault(
          name,
          `the bot is not in ${id} (#${channel?.name ?? id})`,
          `in Slack, type /invite @vidops in #${channel?.name ?? id}`,
        );
      } catch (error) {
        return fault(
          name,
          `${id}: ${why(error)}`,
          'set the channel ID (C…, from the channel details), not its name',
        );
      }
    }),
  );
}

/** The key and its state file are readable by their owner only, and the database extends what the key signed. */
async function signingKey(d: Doctor): Promise<Finding[]> {
  const { config } = d;
  const name = 'signing key';
  if (config.auditSigningKeyFile === undefined) {
    return [
      pass(name, 'not set: no checkpoints are signed (AUDIT_SIGNING_KEY_FILE, docs/audit-checkpoints.md)'),
    ];
  }
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
          ? fault(
              what,
              `${path} cannot be read`,
              'point AUDIT_SIGNING_KEY_FILE at the key (vidops audit keygen makes one)',
            )
          : pass(what, `${path} not made yet: the first checkpoint makes it`),
      );
    } else if ((mode & 0o077) !== 0) {
      findings.push(
        fault(
          what,
          `${path} has mode ${mode.toString(8)}: others may read or change it`,
          `chmod 600 ${path}`,
        ),
      );
    } else findings.push(pass(what, `${path} has mode ${mode.toString(8)}`));
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
        ? pass('signing key and database', 'the audit log extends the last checkpoint the key signed')
        : fault(
            'signing key and database',
            refused.reason,
            'after a deliberate restore: vidops audit verify, then vidops audit checkpoint --accept-baseline --reason "…"; otherwise treat it as tampering',
          ),
    );
  } catch (error) {
    findings.push(
      fault('signing key and database', why(error), 'check AUDIT_SIGNING_KEY_FILE and AUDIT_LOG_NAME'),
    );
  }
  return findings;
}

/** A documented read (the whitelist, op 2) with the keys given. */
async function videoService(d: Doctor): Promise<Finding> {
  const name = 'video service';
  if (d.store === null)
    return fault(name, 'not checked: the database does not answer', 'fix the database first');
  const client = openVideoClient(d.config.video, d.store);
  const started = performance.now();
  try {
    const list = await client.whitelist.get();
    const ms = Math.round(performance.now() - started);
    return pass(
      name,
      `${d.config.video.url} answered a whitelist read in ${ms} ms (${list.length} addresses)`,
    );
  } catch (error) {
    return fault(
      name,
      `${d.config.video.url}: ${why(error)}`,
      'check VIDEO_API_URL, VIDEO_API_KEY and VIDEO_SECRET_KEY, and that this host may reach the service',
    );
  } finally {
    client.close();
  }
}

/** This host's clock against the database's: replicas judge each other's leases by the clock. */
async function clockCheck(d: Doctor): Promise<Finding> {
  const name = 'clock';
  if (d.store === null)
    return fault(name, 'not checked: the database does not answer', 'fix the database first');
  const [db, here] = [await d.store.databaseNow(), d.clock()];
  const skew = here.getTime() - db.getTime();
  if (Number.isNaN(skew) || Math.abs(skew) > CLOCK_SKEW_MS) {
    return fault(
      name,
      `this host says ${here.toISOString()}, the database ${db.toISOString()} (${Math.round(skew / 1000)} s apart)`,
      'turn on NTP on both hosts (timedatectl set-ntp true)',
    );
  }
  return pass(name, `within ${CLOCK_SKEW_MS / 1000} s of the database's (${skew} ms)`);
}

/** Every user and user group the policy names, known to Slack (`users.info`, `usergroups.users.list`). */
async function people(d: Doctor): Promise<Finding[]> {
  let policy: Policy;
  try {
    policy = await loadPolicy(d.config, (path) => readPolicyFile(resolve(d.run.cwd, path)));
  } catch (error) {
    return [fault('policy', why(error), 'fix POLICY_FILE, LEADS or AGENTS as the message says')];
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
    return [
      fault(
        'policy people',
        `Slack knows no active ${unknown.join(', ')}`,
        'correct the IDs in LEADS, AGENTS or POLICY_FILE (a user ID is U… or W…, a user group S…, from Slack profiles)',
      ),
    ];
  }
  return [pass('policy people', `Slack knows all ${ids.size} people and groups the policy names`)];
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
