import Module, { createRequire } from 'node:module';

/**
 * The Bolt classes vidops runs, loaded from their own modules rather than Bolt's index. The index
 * also loads the Express and AWS Lambda receivers with Express and its packages, which vidops
 * never uses. Types still come from `@slack/bolt`; these are the same modules its index hands
 * out, so `instanceof` holds across the two.
 *
 * Socket Mode's receiver loads the first time it is used. Bolt's App module requires it as it
 * loads, and with it `@slack/socket-mode` and undici, which a process serving HTTP never runs. So
 * before App loads, the receiver's entry in Node's module cache is a stand-in whose `default`
 * loads the real module; when something loaded it already, or Bolt moved the file, the real one
 * is simply used. Together, at start: 240 fewer CommonJS modules and 5.4 MB less heap
 * (docs/benchmarks.md, "The last figures").
 */
const require = createRequire(import.meta.url);

const SOCKET_MODE_RECEIVER = '@slack/bolt/dist/receivers/SocketModeReceiver.js';
type SocketModeModule = typeof import('@slack/bolt/dist/receivers/SocketModeReceiver.js');

const socketModeModule = ((): (() => SocketModeModule) => {
  const plain = () => require(SOCKET_MODE_RECEIVER) as SocketModeModule;
  let path: string;
  try {
    path = require.resolve(SOCKET_MODE_RECEIVER);
  } catch {
    return plain;
  }
  if (require.cache[path] !== undefined) return plain;
  let real: SocketModeModule | undefined;
  const load = (): SocketModeModule => {
    if (real === undefined) {
      // Only the stand-in makes way: a real module someone else put there is the one to use.
      if (require.cache[path] === standIn) delete require.cache[path];
      real = require(path) as SocketModeModule;
    }
    return real;
  };
  const standIn = new Module(path);
  standIn.filename = path;
  standIn.loaded = true;
  standIn.exports = {
    __esModule: true,
    get default() {
      return load().default;
    },
  };
  require.cache[path] = standIn;
  return load;
})();

const app = require('@slack/bolt/dist/App.js') as typeof import('@slack/bolt/dist/App.js');
const errors = require('@slack/bolt/dist/errors.js') as typeof import('@slack/bolt/dist/errors.js');

export const App = app.default;
export type App = InstanceType<typeof App>;
export const LogLevel = app.LogLevel;
export type LogLevel = import('@slack/bolt').LogLevel;
export type SocketModeReceiver = InstanceType<SocketModeModule['default']>;
export type SocketModeReceiverOptions = ConstructorParameters<SocketModeModule['default']>[0];
/** A Socket Mode receiver; the first call loads `@slack/socket-mode`. */
export function createSocketModeReceiver(options: SocketModeReceiverOptions): SocketModeReceiver {
  const receiver = new (socketModeModule().default)(options);
  dropFailedMessages(receiver.client, options.logger);
  return receiver;
}

/**
 * The Socket Mode client reads an `events_api` envelope's `payload.event.type` unchecked, and its
 * message listener's promise is not awaited: one envelope without an event rejected unhandled and
 * ended the process. Its listener is wrapped so that a message it fails on is logged and dropped,
 * and the connection goes on. If the library no longer has exactly that one listener, it is left.
 */
function dropFailedMessages(
  client: SocketModeReceiver['client'],
  logger: SocketModeReceiverOptions['logger'],
): void {
  const listeners = client.listeners('ws_message');
  const [listener] = listeners;
  if (listeners.length !== 1 || listener === undefined) return;
  client.removeAllListeners('ws_message');
  client.on('ws_message', (...args: unknown[]) => {
    const handled: unknown = listener.apply(client, args);
    if (handled instanceof Promise) {
      handled.catch((error: unknown) => {
        logger?.warn(`dropped a Socket Mode message vidops could not read: ${String(error)}`);
      });
    }
  });
}
export const { AuthorizationError, ReceiverMultipleAckError, RespondError } = errors;
