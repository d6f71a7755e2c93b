import { createRequire } from 'node:module';

/**
 * The Bolt classes vidops runs, loaded from their own modules rather than Bolt's index. The index
 * also loads the Express and AWS Lambda receivers with Express and its packages, which vidops
 * never uses: about 1.8 MB of heap and 5 MB of RSS in every process (docs/benchmarks.md). Types
 * still come from `@slack/bolt`; these are the same modules its index hands out, so `instanceof`
 * holds across the two.
 */
const require = createRequire(import.meta.url);

const app = require('@slack/bolt/dist/App.js') as typeof import('@slack/bolt/dist/App.js');
const socketMode =
  require('@slack/bolt/dist/receivers/SocketModeReceiver.js') as typeof import('@slack/bolt/dist/receivers/SocketModeReceiver.js');
const errors = require('@slack/bolt/dist/errors.js') as typeof import('@slack/bolt/dist/errors.js');

export const App = app.default;
export type App = InstanceType<typeof App>;
export const LogLevel = app.LogLevel;
export type LogLevel = import('@slack/bolt').LogLevel;
export const SocketModeReceiver = socketMode.default;
export type SocketModeReceiver = InstanceType<typeof SocketModeReceiver>;
export const { AuthorizationError, ReceiverMultipleAckError, RespondError } = errors;
