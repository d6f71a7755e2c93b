import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { JsonObject, JsonValue } from '../core/json.js';
import { isObject } from './json.js';
import { APP_ID } from './workspace.js';

/**
 * Slack's side of Socket Mode: `apps.connections.open` hands out a one-time WebSocket URL; a
 * client that connects there is greeted with `hello`, pinged, sent envelopes
 * (`slash_commands`, `interactive`, `events_api`) and must acknowledge each by its
 * `envelope_id`, with an optional `payload` (a `response_action`, a slash command's reply).
 * `disconnect` asks a client to reconnect, as Slack does when it recycles a connection.
 * @see docs/slack.md, "Deadlines"; docs/architecture.md, "Emulator and playground"
 */

/** The kinds of envelope Slack sends over a socket. */
export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

/** What came back for one envelope. */
export type EnvelopeAnswer =
  | { acked: true; payload: JsonObject | undefined; ms: number }
  | { acked: false; reason: 'timeout' | 'no_connection' | 'closed'; ms: number };

interface Pending {
  resolve: (answer: EnvelopeAnswer) => void;
  timer: NodeJS.Timeout;
  started: number;
}

/** How long a ticket from `apps.connections.open` may wait to be used (once). */
const TICKET_TTL_MS = 30_000;

export interface SocketModeHubOptions {
  /** How often the server pings each connection (Slack pings; clients time out without). */
  pingIntervalMs?: number;
  /** Something worth telling whoever runs the emulator (a late ack, a client gone). */
  onNote?: (note: string) => void;
}

export class SocketModeHub {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private readonly tickets = new Map<string, number>();
  private readonly pending = new Map<string, Pending>();
  private readonly events = new EventEmitter();
  private readonly pingTimer: NodeJS.Timeout;
  private next = 0;
  /** Hellos sent since the start: a reconnect shows as one more. */
  helloCount = 0;

  constructor(private readonly options: SocketModeHubOptions = {}) {
    this.events.setMaxListeners(0);
    this.pingTimer = setInterval(() => {
      for (const socket of this.sockets) socket.ping();
    }, options.pingIntervalMs ?? 10_000);
    this.pingTimer.unref();
  }

  /** A one-time ticket for the URL `apps.connections.open` answers. */
  issueTicket(): string {
    const ticket = randomBytes(16).toString('hex');
    this.tickets.set(ticket, Date.now());
    return ticket;
  }

  /** Takes over an HTTP upgrade on the socket path; refuses an unknown or used ticket. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const ticket = url.searchParams.get('ticket') ?? '';
    const issued = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    if (issued === undefined || Date.now() - issued > TICKET_TTL_MS) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.onMessage(data.toString());
    });
    ws.on('close', () => {
      this.sockets.delete(ws);
      this.events.emit('change');
    });
    ws.on('error', () => {
      this.sockets.delete(ws);
    });
    this.helloCount += 1;
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.sockets.size,
        debug_info: { host: 'vidops-emulator', approximate_connection_time: 18_060 },
        connection_info: { app_id: APP_ID },
      }),
    );
    this.events.emit('change');
  }

  private onMessage(text: string): void {
    let message: JsonValue;
    try {
      message = JSON.parse(text);
    } catch {
      this.options.onNote?.('Socket Mode: a message that is not JSON was ignored');
      return;
    }
    if (!isObject(message) || typeof message.envelope_id !== 'string') return;
    const pending = this.pending.get(message.envelope_id);
    if (pending === undefined) {
      this.options.onNote?.(`Socket Mode: an ack for an unknown or late envelope ${message.envelope_id}`);
      return;
    }
    this.pending.delete(message.envelope_id);
    clearTimeout(pending.timer);
    const payload = isObject(message.payload) ? message.payload : undefined;
    pending.resolve({ acked: true, payload, ms: performance.now() - pending.started });
  }

  /** Calls `listener` whenever a connection opens or closes. */
  onConnectionChange(listener: () => void): void {
    this.events.on('change', listener);
  }

  /** Open connections (a client that got `hello` and has not gone). */
  get connections(): number {
    return this.sockets.size;
  }

  /** Resolves once at least `count` connections are open (or the time is up: rejects). */
  waitForConnections(count = 1, timeoutMs = 15_000): Promise<void> {
    if (this.sockets.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.sockets.size < count) return;
        clearTimeout(timer);
        this.events.off('change', check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.events.off('change', check);
        reject(new Error(`no Socket Mode connection within ${timeoutMs} ms (${this.sockets.size} open)`));
      }, timeoutMs);
      this.events.on('change', check);
    });
  }

  /**
   * Sends one envelope to one open connection (Slack picks one of the app's connections) and
   * waits for its ack up to `ackTimeoutMs`.
   */
  send(
    type: EnvelopeType,
    payload: JsonObject,
    options: { ackTimeoutMs: number; retryAttempt?: number; retryReason?: string },
  ): Promise<EnvelopeAnswer> {
    const open = [...this.sockets];
    const started = performance.now();
    if (open.length === 0) return Promise.resolve({ acked: false, reason: 'no_connection', ms: 0 });
    const socket = open[this.next % open.length];
    this.next += 1;
    const envelopeId = randomUUID();
    const envelope: JsonObject = {
      envelope_id: envelopeId,
      type,
      payload,
      accepts_response_payload: type !== 'events_api',
    };
    if (type === 'events_api') {
      envelope.retry_attempt = options.retryAttempt ?? 0;
      envelope.retry_reason = options.retryReason ?? '';
    }
    return new Promise<EnvelopeAnswer>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelopeId);
        resolve({ acked: false, reason: 'timeout', ms: performance.now() - started });
      }, options.ackTimeoutMs);
      this.pending.set(envelopeId, { resolve, timer, started });
      socket?.send(JSON.stringify(envelope));
    });
  }

  /** Asks every client to reconnect (`disconnect`, reason `refresh_requested` by default). */
  requestReconnect(reason = 'refresh_requested'): void {
    for (const socket of this.sockets) {
      socket.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'vidops-emulator' } }));
    }
  }

  /** Cuts every connection without a word, as a network failure would. */
  dropAll(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  close(): void {
    clearInterval(this.pingTimer);
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.resolve({ acked: false, reason: 'closed', ms: performance.now() - pending.started });
      this.pending.delete(id);
    }
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    this.wss.close();
    this.events.removeAllListeners();
  }
}
