import { Lifecycle, type Part } from './parts.js';

/** A part that records its starts and stops in `log`, failing where told. */
function part(name: string, log: string[], fails: { start?: boolean; stop?: boolean } = {}): Part {
  return {
    start: async () => {
      if (fails.start) throw new Error(`${name} cannot start`);
      log.push(`start ${name}`);
    },
    stop: async () => {
      log.push(`stop ${name}`);
      if (fails.stop) throw new Error(`${name} cannot stop`);
    },
  };
}

describe('the parts of vidops start in order and stop in reverse', () => {
  it('starts each part in the order listed and stops them in reverse', async () => {
    const log: string[] = [];
    const parts = new Lifecycle([part('store', log), part('worker', log), part('slack', log)]);
    await parts.start();
    await parts.stop();
    expect(log).toEqual([
      'start store',
      'start worker',
      'start slack',
      'stop slack',
      'stop worker',
      'stop store',
    ]);
  });

  it('a part that fails to start stops the ones started before it, and the error is passed on', async () => {
    const log: string[] = [];
    const parts = new Lifecycle([
      part('store', log),
      part('slack', log, { start: true }),
      part('sweeps', log),
    ]);
    await expect(parts.start()).rejects.toThrow('slack cannot start');
    expect(log).toEqual(['start store', 'stop store']);
  });

  it('a part that fails to stop does not keep the others open; its error is passed on after them', async () => {
    const log: string[] = [];
    const parts = new Lifecycle([part('store', log), part('slack', log, { stop: true })]);
    await parts.start();
    await expect(parts.stop()).rejects.toThrow('slack cannot stop');
    expect(log).toEqual(['start store', 'start slack', 'stop slack', 'stop store']);
  });

  it('stopped twice, each part stops once', async () => {
    const log: string[] = [];
    const parts = new Lifecycle([part('store', log)]);
    await parts.start();
    await Promise.all([parts.stop(), parts.stop()]);
    await parts.stop();
    expect(log).toEqual(['start store', 'stop store']);
  });

  it('stopped without a start, every part is stopped: what was opened is closed', async () => {
    const log: string[] = [];
    await new Lifecycle([part('store', log), part('client', log)]).stop();
    expect(log).toEqual(['stop client', 'stop store']);
  });
});
