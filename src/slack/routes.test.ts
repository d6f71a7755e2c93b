import { App } from '@slack/bolt';
import pino from 'pino';
import { appHomeOpened, blockAction, postSigned, viewClosed, viewSubmission } from '../emulator/index.js';
import { boltLoggerFor } from './app.js';
import { createVidopsMetrics } from './metrics.js';
import { VidopsReceiver } from './receiver.js';
import { createSlackRoutes, type SlackRoutes } from './routes.js';

const SECRET = 'routes-test-signing-secret';
const silent = pino({ level: 'silent' });

interface Harness {
  url: string;
  receiver: VidopsReceiver;
  routes: SlackRoutes;
  /** What ran, in order: `action:<id>`, `view:<id>`, `event:<type>`. */
  ran: string[];
}

async function startHarness(): Promise<Harness> {
  const receiver = new VidopsReceiver({
    signingSecret: SECRET,
    logger: silent,
    metrics: createVidopsMetrics(),
    host: '127.0.0.1',
    port: 0,
    // A request nobody acknowledges is answered 404 after this, as Bolt does after 3 s.
    unhandledRequestTimeoutMs: 200,
  });
  // botId and botUserId given: Bolt needs no auth.test call, so no Slack API is involved here.
  const app = new App({
    token: 'xoxb-routes-test',
    botId: 'B0VIDOPS',
    botUserId: 'U0VIDOPSBOT',
    receiver,
    logger: boltLoggerFor(silent, 'silent'),
  });
  const ran: string[] = [];
  const routes = createSlackRoutes(app);
  for (const id of ['approve', 'cancel', 'reject']) {
    routes.action(id, async ({ ack, action }) => {
      ran.push(`action:${action.action_id}`);
      await ack();
    });
  }
  routes.view('unblock', async ({ ack, view }) => {
    ran.push(`view:${view.callback_id}`);
    await ack({ response_action: 'errors', errors: { mobile: 'too short' } });
  });
  routes.view('protect', async ({ ack, view }) => {
    ran.push(`view:${view.callback_id}`);
    await ack();
  });
  routes.event('app_home_opened', async ({ event }) => {
    ran.push(`event:${event.type}`);
  });
  const { port } = await receiver.start();
  return { url: `http://127.0.0.1:${port}/slack/events`, receiver, routes, ran };
}

describe('Slack routes: one Bolt listener per kind, handlers by ID', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness();
  });

  afterEach(async () => {
    await h.receiver.stop();
  });

  it.each(['approve', 'cancel', 'reject'])('lead clicks %s: that handler alone runs', async (actionId) => {
    const res = await postSigned(h.url, blockAction({ userId: 'U0LEAD', actionId, value: 'R-1' }), SECRET);
    expect(res.status).toBe(200);
    expect(h.ran).toEqual([`action:${actionId}`]);
  });

  it('agent submits a modal: its callback handler runs and its ack is the answer', async () => {
    const submission = viewSubmission({
      userId: 'U0AGENT',
      callbackId: 'unblock',
      privateMetadata: '{}',
      values: {},
    });
    const res = await postSigned(h.url, submission, SECRET);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ response_action: 'errors', errors: { mobile: 'too short' } });
    expect(h.ran).toEqual(['view:unblock']);
  });

  it.each([
    ['a button nobody handles', blockAction({ userId: 'U0AGENT', actionId: 'unknown', value: 'x' })],
    [
      'a modal nobody handles',
      viewSubmission({ userId: 'U0AGENT', callbackId: 'unknown', privateMetadata: '', values: {} }),
    ],
    ['a closed modal (not a submission)', viewClosed({ userId: 'U0AGENT', callbackId: 'unblock' })],
  ])('%s is left unacknowledged, as with Bolt (404 at the deadline)', async (_what, request) => {
    const res = await postSigned(h.url, request, SECRET);
    expect(res.status).toBe(404);
    expect(h.ran).toEqual([]);
  });

  it('person opens the App Home: the event handler runs and Bolt acknowledges the event', async () => {
    const res = await postSigned(h.url, appHomeOpened({ userId: 'U0AGENT' }), SECRET);
    expect(res.status).toBe(200);
    // Events are acknowledged before their handler runs: wait (bounded) for it.
    const deadline = Date.now() + 2000;
    while (h.ran.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(h.ran).toEqual(['event:app_home_opened']);
  });

  it.each([
    ['action', (routes: SlackRoutes) => routes.action('approve', async () => undefined)],
    ['view', (routes: SlackRoutes) => routes.view('protect', async () => undefined)],
  ])('a second %s handler for one ID stops the start', (kind, register) => {
    expect(() => register(h.routes)).toThrow(`two handlers for the ${kind}`);
  });
});
