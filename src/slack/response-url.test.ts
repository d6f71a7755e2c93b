import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RespondError } from '@slack/bolt';
import { createResponseUrlPoster, type ResponseUrlPoster } from './response-url.js';

interface Received {
  method: string | undefined;
  path: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

describe('answering a slash command through its response_url', () => {
  let server: Server;
  let base: string;
  let poster: ResponseUrlPoster;
  const received: Received[] = [];
  let connections = 0;
  let status = 200;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          method: req.method,
          path: req.url,
          contentType: req.headers['content-type'],
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'expired_url');
      });
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    received.length = 0;
    connections = 0;
    status = 200;
    poster = createResponseUrlPoster();
  });

  afterEach(() => poster.close());

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('posts the message as JSON, a plain string as its text, over one kept-alive connection', async () => {
    const respond = poster.respondTo(`${base}/commands/T0/123/abc`);
    await respond({ response_type: 'ephemeral', text: 'Viewer 0912***4567 is unblocked.' });
    await respond('done');

    expect(received).toEqual([
      {
        method: 'POST',
        path: '/commands/T0/123/abc',
        contentType: 'application/json; charset=utf-8',
        body: { response_type: 'ephemeral', text: 'Viewer 0912***4567 is unblocked.' },
      },
      {
        method: 'POST',
        path: '/commands/T0/123/abc',
        contentType: 'application/json; charset=utf-8',
        body: { text: 'done' },
      },
    ]);
    expect(connections).toBe(1);
  });

  it('fails with Bolt’s RespondError, with the status, when Slack refuses the post', async () => {
    status = 404;
    const failure = poster.respondTo(`${base}/commands/expired`)('too late');

    await expect(failure).rejects.toBeInstanceOf(RespondError);
    await expect(failure).rejects.toMatchObject({ statusCode: 404, message: expect.stringContaining('404') });
  });

  it('refuses what is not an HTTP URL without sending anything', async () => {
    await expect(poster.respondTo('not a url')('hi')).rejects.toBeInstanceOf(RespondError);
    await expect(poster.respondTo('ftp://example.com/x')('hi')).rejects.toThrow(/ftp: is not HTTP/);
    expect(received).toEqual([]);
  });

  it('gives up on a response_url that does not answer', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const quick = createResponseUrlPoster({ timeoutMs: 50 });
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/x`;
      await expect(quick.respondTo(url)('hi')).rejects.toThrow(/did not answer within 50 ms/);
    } finally {
      quick.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
