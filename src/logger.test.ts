import { Writable } from 'node:stream';
import { createLogger, scrubForLog } from './logger.js';

/** A destination that keeps every line pino writes. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}

function parsedLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => {
    const parsed: Record<string, unknown> = JSON.parse(line);
    return parsed;
  });
}

const SECRETS = {
  botToken: 'xoxb-1111-2222-secretbot',
  appToken: 'xapp-1-A1-secretapp',
  signingSecret: 'signing-secret-value-42',
  apiKey: 'api-key-value-77',
  secretKey: 'secret-key-value-88',
};

describe('an operator reads the logs', () => {
  it('never sees a token, key or signing secret, wherever it was put', () => {
    const out = capture();
    const log = createLogger({ level: 'info', destination: out.stream });
    log.info({ config: { slack: SECRETS } }, 'config loaded');
    log.info({ token: SECRETS.botToken }, 'top level token');
    log.info({ video: { api_key: SECRETS.apiKey, secret_key: SECRETS.secretKey } }, 'snake case keys');
    log.info(
      {
        headers: { authorization: `Bearer ${SECRETS.botToken}` },
        request: {
          headers: { api_key: SECRETS.apiKey, secret_key: SECRETS.secretKey, authorization: 'Bearer x' },
        },
        req: { headers: { cookie: 'session=abc123' } },
      },
      'outgoing request',
    );
    // Class instances too, at any depth: they are written as JSON writes them, secrets censored.
    class Connection {
      readonly token = SECRETS.appToken;
      readonly headers = { authorization: `Bearer ${SECRETS.botToken}` };
      readonly at = new Date(0);
    }
    log.info({ socket: new Connection(), nested: { deeper: [new Connection()] } }, 'class instances');

    const text = out.text();
    for (const secret of [...Object.values(SECRETS), 'session=abc123', 'Bearer x']) {
      expect(text).not.toContain(secret);
    }
    const [config, top, snake, request] = parsedLines(out.lines);
    expect(config?.config).toEqual({
      slack: {
        botToken: '[redacted]',
        appToken: '[redacted]',
        signingSecret: '[redacted]',
        apiKey: '[redacted]',
        secretKey: '[redacted]',
      },
    });
    expect(top?.token).toBe('[redacted]');
    expect(snake?.video).toEqual({ api_key: '[redacted]', secret_key: '[redacted]' });
    expect(request?.headers).toEqual({ authorization: '[redacted]' });
    expect(request?.request).toEqual({
      headers: { api_key: '[redacted]', secret_key: '[redacted]', authorization: '[redacted]' },
    });
    expect(request?.req).toEqual({ headers: { cookie: '[redacted]' } });
    const written = {
      token: '[redacted]',
      headers: { authorization: '[redacted]' },
      at: '1970-01-01T00:00:00.000Z',
    };
    expect(parsedLines(out.lines)[4]).toMatchObject({ socket: written, nested: { deeper: [written] } });
  });

  it('sees mobile numbers masked in messages, format arguments, fields, bindings and errors', () => {
    const out = capture();
    const log = createLogger({ level: 'debug', destination: out.stream }).child({ viewer: '09121112233' });
    log.info('unblocking 09123456789 for agent U1');
    log.info('unblocking %s', '+98 912 345 6789');
    log.debug({ target: { mobile: '09123456789', history: ['0912-345-6789', 'ok'] } }, 'deep fields');
    log.warn({ note: 'Persian ۰۹۱۲۳۴۵۶۷۸۹ typed' }, 'persian digits');
    log.error(new Error('viewer 09123456789 not found'));
    log.error(
      { err: new Error('upstream refused 09123456789', { cause: new Error('for 09129998877') }) },
      'failed',
    );

    const text = out.text();
    for (const whole of [
      '09123456789',
      '9123456789',
      '09121112233',
      '09129998877',
      '۰۹۱۲۳۴۵۶۷۸۹',
      '345 6789',
    ]) {
      expect(text).not.toContain(whole);
    }
    const [plain, formatted, deep, persian, error, nested] = parsedLines(out.lines);
    expect(plain?.msg).toBe('unblocking 0912***6789 for agent U1');
    expect(plain?.viewer).toBe('0912***2233');
    expect(formatted?.msg).toBe('unblocking +9891***6789');
    expect(deep?.target).toEqual({ mobile: '0912***6789', history: ['0912***6789', 'ok'] });
    expect(persian?.note).toBe('Persian 0912***6789 typed');
    expect(error?.msg).toBe('viewer 0912***6789 not found');
    expect(error?.err).toMatchObject({ type: 'Error', message: 'viewer 0912***6789 not found' });
    // pino's error serializer appends the cause to the message.
    expect(nested?.err).toMatchObject({ message: 'upstream refused 0912***6789: for 0912***8877' });
  });

  it('sees no secret inside a logged HTTP client error, and numbers masked in grandchild bindings', () => {
    const out = capture();
    const log = createLogger({ level: 'info', destination: out.stream });
    const failure = Object.assign(new Error('Request failed with status code 401'), {
      options: {
        url: 'http://127.0.0.1/v1/viewers/unblock',
        headers: { api_key: SECRETS.apiKey, secret_key: SECRETS.secretKey },
      },
    });
    log
      .child({ component: 'client' })
      .child({ viewer: '09121112233' })
      .error({ err: failure }, 'unblock failed');

    const text = out.text();
    expect(text).not.toContain(SECRETS.apiKey);
    expect(text).not.toContain(SECRETS.secretKey);
    expect(text).not.toContain('09121112233');
    const [line] = parsedLines(out.lines);
    expect(line).toMatchObject({
      component: 'client',
      viewer: '0912***2233',
      err: { options: { headers: { api_key: '[redacted]', secret_key: '[redacted]' } } },
    });
  });

  it('keeps hex IDs, times and counts readable', () => {
    const out = capture();
    createLogger({ level: 'info', destination: out.stream }).info(
      { fileId: '671018d0403eba579a6f90e2', at: '2026-11-21T10:00:00Z', count: 12345678901 },
      'retry of 671018d0403eba579a6f90e2',
    );
    const [line] = parsedLines(out.lines);
    expect(line).toMatchObject({
      fileId: '671018d0403eba579a6f90e2',
      at: '2026-11-21T10:00:00Z',
      count: 12345678901,
      msg: 'retry of 671018d0403eba579a6f90e2',
    });
  });

  it('honours the level', () => {
    const out = capture();
    const log = createLogger({ level: 'warn', destination: out.stream });
    log.info('hidden');
    log.warn('shown');
    expect(parsedLines(out.lines).map((l) => l.msg)).toEqual(['shown']);
  });
});

describe('scrubForLog', () => {
  it('copies instead of changing what the caller still holds, and survives cycles', () => {
    const record: { mobile: string; self?: unknown; when: Date } = {
      mobile: '09123456789',
      when: new Date(0),
    };
    record.self = record;
    const masked = scrubForLog(record);
    expect(record.mobile).toBe('09123456789');
    expect(masked.mobile).toBe('0912***6789');
    expect(masked.self).toBe(masked);
    expect(masked.when).toBe(record.when);
  });

  it('still gets a line when a logged object cannot be read', () => {
    const out = capture();
    const log = createLogger({ level: 'info', destination: out.stream });
    class Broken {
      constructor() {
        Object.defineProperty(this, 'state', {
          enumerable: true,
          get() {
            throw new Error('not readable now');
          },
        });
      }
    }
    expect(() => log.info({ thing: new Broken(), requestId: 'R-1' }, 'logged anyway')).not.toThrow();
    expect(parsedLines(out.lines)[0]).toMatchObject({ thing: { unreadable: true }, requestId: 'R-1' });
  });

  it('keeps the class of an error so serializers still recognise it', () => {
    class UpstreamError extends Error {
      constructor(
        message: string,
        readonly status: number,
      ) {
        super(message);
        this.name = 'UpstreamError';
      }
    }
    const masked = scrubForLog(new UpstreamError('no viewer 09123456789', 404));
    expect(masked).toBeInstanceOf(UpstreamError);
    expect(masked.message).toBe('no viewer 0912***6789');
    expect(masked.status).toBe(404);
    expect(masked.stack).not.toContain('09123456789');
  });
});
