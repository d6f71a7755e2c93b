import {
  Advance,
  Approve,
  Ask,
  CrashInSweep,
  Extend,
  PutBackNow,
  Revert,
  replay,
  ServiceSets,
  Sweep,
} from './time-box-model.js';
import { ava, bob, useModelWorlds } from './world.js';

/**
 * The sequences the model of time-boxed changes found (time-box.model.test.ts), kept as examples
 * named after what people did. Each runs through the same checks as the model after every step
 * (the service as the model says, one holder per item, legal states, the audit chain), then time
 * runs past every end and nothing may be left in force.
 * @see docs/time-boxed.md, "Tested against a model"
 */

const { kinds, open } = useModelWorlds('tbexamples');

describe.each(kinds)('%s', (kind) => {
  const run = async (commands: Parameters<typeof replay>[1]) => {
    const w = await open(kind);
    try {
      await replay(w, commands);
    } finally {
      await w.close();
    }
  };

  // Found on main (seed -209500387): the change ran and went back 30 s later.
  test('an agent asks to turn preventZoom on until a time that passes before the lead approves: refused at approval', async () => {
    await run([
      new Ask(ava, 'preventZoom', 0, { kind: 'until', minutes: 20 }),
      new Advance(60),
      new Approve(0, 0),
    ]);
  });

  // Found on main: the second window took the setting over from the first.
  test('an agent asks for two windows on one setting and the lead approves both: the second is refused', async () => {
    await run([
      new Ask(ava, 'preventZoom', 0, { kind: 'for', minutes: 30 }),
      new Ask(ava, 'preventZoom', 0, { kind: 'until', minutes: 20 }),
      new Approve(0, 0),
      new Approve(0, 0),
    ]);
  });

  test('a second window on an address in force is refused before anything is recorded', async () => {
    await run([
      new Ask(ava, '5.6.7.8', 0, { kind: 'for', minutes: 60 }),
      new Approve(0, 0),
      new Ask(bob, '5.6.7.8', 0, { kind: 'for', minutes: 120 }),
    ]);
  });

  // Found on tb (seed -726673895): a change for good of the value a window set wins, the put-back
  // leaves it, and that change, which set what was already there, has nothing to revert.
  test('a lead approves a change for good of what a window set, puts the window back now, and the agent asks to revert the change', async () => {
    await run([
      new Ask(ava, 'preventZoom', 0, { kind: 'for', minutes: 30 }),
      new Ask(ava, 'preventZoom', 0, null),
      new Approve(0, 0),
      new Approve(0, 0),
      new PutBackNow(0, 0),
      new Revert(0),
    ]);
  });

  // Found on tb (seed -1906510968): the Revert left the window held by a put-back a dead process
  // had claimed, so the setting stayed held after the Revert ended its window.
  test('a lead approves the Revert of a window whose put-back a process claimed before it died', async () => {
    await run([
      new Ask(ava, 'preventZoom', 0, { kind: 'for', minutes: 30 }),
      new Approve(0, 0),
      new Revert(0),
      new Advance(100),
      new CrashInSweep('before-put-back-create'),
      new Approve(0, 0),
    ]);
  });

  // Found on tb: a whitelist Revert planned on a list that moved since is refused, as documented.
  test('an agent asks to revert an address window, another address is added before the lead approves', async () => {
    await run([
      new Ask(ava, '9.9.9.9', 0, { kind: 'for', minutes: 30 }),
      new Approve(0, 0),
      new Extend(0, 30, false),
      new Ask(ava, '5.6.7.8', 0, { kind: 'for', minutes: 30 }),
      new Revert(0),
      new Extend(0, 30, false),
      new Approve(5, 0),
      new Approve(4, 0),
    ]);
  });

  // Found by CI (seed 353042769): the model's fault. The sweep of a process that then died found
  // nothing to send and recorded the window `left` first; the model kept the window in force.
  test('someone sets preventZoom back on the service during a window, and a sweep that ends it finds nothing to send before its process dies', async () => {
    await run([
      new Ask(ava, 'preventZoom', 0, { kind: 'for', minutes: 30 }),
      new Approve(0, 0),
      new ServiceSets('preventZoom', 0),
      new Advance(100),
      new CrashInSweep('before-put-back-create'),
    ]);
  });

  // Found on tbfix (seed -1692497019): the second Revert planned the same removal again, on the
  // address a later window had added, and removed it.
  test('an agent asks twice to revert an address window; after the first, a new window adds the address and the lead approves the second', async () => {
    await run([
      new Ask(ava, '9.9.9.9', 0, { kind: 'for', minutes: 30 }),
      new Approve(0, 0),
      new Revert(0),
      new Revert(0),
      new Approve(0, 0),
      new Ask(ava, '9.9.9.9', 0, { kind: 'until', minutes: 20 }),
      new Approve(1, 0),
      new Approve(0, 0),
    ]);
  });

  // Found on ops2 (the model drew Reverts of changes made for good): the second Revert was asked,
  // and once approved it turned preventZoom off again over the value set by hand since the first.
  test('an agent asks twice to revert a change made without a window; the first applies, someone sets it back by hand, the lead approves the second', async () => {
    await run([
      new Ask(ava, 'preventZoom', 0, null),
      new Approve(0, 0),
      new Revert(0),
      new Revert(0),
      new Approve(0, 0),
      new ServiceSets('preventZoom', 0),
      new Approve(0, 0),
      new Revert(0),
    ]);
  });

  // Found on tbfix (PostgreSQL, seed -1290891841): the put-back a dead process had planned was
  // resumed as planned, and sent opacity back over the value someone set since.
  test('a process dies just after planning a put-back; someone then sets opacity on the service, and the next sweep leaves it as they set it', async () => {
    await run([
      new Ask(ava, 'opacity', 0, { kind: 'for', minutes: 30 }),
      new Approve(0, 0),
      new Advance(100),
      new CrashInSweep('after-put-back-create'),
      new ServiceSets('opacity', 0),
      new Sweep(0),
    ]);
  });
});
