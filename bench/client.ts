import { performance } from 'node:perf_hooks';
import { createVideoClient } from '../src/client/index.js';
import { DEMO, startSandbox } from '../src/sandbox/server.js';
import { sandboxClientOptions } from './shared.js';

/**
 * Cost of the client over a bare HTTP call: N sequential `whitelist.get()` through the client
 * (got, retry loop, error mapping, permissive parsing) against N raw `fetch` GETs with the same
 * headers, both on keep-alive connections to the same local sandbox. Node's global fetch uses
 * undici's default dispatcher, which keeps connections alive, so neither side pays for TCP set-up.
 * Goal: client/raw ≤ 1.3.
 */

const N = 2_000;
const WARM_UP = 300;
/** Calls per alternating round, so drift in the machine or sandbox hits both sides alike. */
const ROUND = 100;

interface Figures {
  mean: number;
  p50: number;
  p99: number;
}

function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, p50: at(0.5), p99: at(0.99) };
}

const ms = (value: number) => `${(value * 1000).toFixed(0).padStart(5)} µs`;

export async function run(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, conversionDelayMs: 1_000 });
  const client = createVideoClient(sandboxClientOptions(sandbox.url));
  const url = `${sandbox.url}/v1/storage/dns/whitelist`;
  const headers = { api_key: DEMO.apiKey, secret_key: DEMO.secretKey, accept: 'application/json' };

  const viaClient = async (): Promise<number> => (await client.whitelist.get()).length;
  const viaFetch = async (): Promise<number> => {
    const response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`raw GET answered ${response.status}`);
    const body = (await response.json()) as { allowedDNS?: unknown[] };
    return body.allowedDNS?.length ?? 0;
  };

  try {
    const expected = await viaFetch();
    if ((await viaClient()) !== expected) throw new Error('client and raw fetch read different whitelists');
    for (let i = 0; i < WARM_UP; i++) {
      await viaClient();
      await viaFetch();
    }
    const clientTimes: number[] = [];
    const rawTimes: number[] = [];
    const time = async (call: () => Promise<number>, into: number[]) => {
      for (let i = 0; i < ROUND; i++) {
        const started = performance.now();
        await call();
        into.push(performance.now() - started);
      }
    };
    for (let done = 0; done < N; done += ROUND) {
      // Alternate which side goes first so neither always runs on a freshly drained log.
      const order = (done / ROUND) % 2 === 0 ? [viaClient, viaFetch] : [viaFetch, viaClient];
      for (const call of order) await time(call, call === viaClient ? clientTimes : rawTimes);
      // The sandbox logs every /v1 request; keep that log small so it costs both sides the same.
      sandbox.clearRequests();
    }
    const c = figures(clientTimes);
    const r = figures(rawTimes);
    console.log(`whitelist.get(), ${N} sequential calls each, keep-alive, sandbox on 127.0.0.1`);
    console.log(`                 mean       p50       p99`);
    console.log(`client (got)   ${ms(c.mean)}  ${ms(c.p50)}  ${ms(c.p99)}`);
    console.log(`raw fetch      ${ms(r.mean)}  ${ms(r.p50)}  ${ms(r.p99)}`);
    const ratio = c.mean / r.mean;
    console.log(
      `ratio client/raw: mean ${ratio.toFixed(2)}, p50 ${(c.p50 / r.p50).toFixed(2)}, p99 ${(c.p99 / r.p99).toFixed(2)} (goal ≤ 1.3: ${ratio <= 1.3 ? 'met' : 'NOT met'})`,
    );
  } finally {
    client.close();
    await sandbox.close();
  }
}
