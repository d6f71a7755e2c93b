import fc from 'fast-check';
import { checkedCommands, drain, initialModel } from './time-box-model.js';
import { assertModel, commandsOptions, timeLimit, useModelWorlds } from './world.js';

/**
 * Time-boxed changes against a model of a few lines (what each setting and address should be,
 * which window holds it until when): asks with and without a window, approvals, rejections,
 * Extends, Put back now, Reverts, changes for good, the service changed by hand, time passing,
 * two replicas sweeping, crashes between claim and send, restarts and a failing service, in any
 * order fast-check draws. A failure prints the seed and path; replay it with VIDOPS_MODEL_SEED
 * and VIDOPS_MODEL_PATH. Each counterexample found stays in time-box.examples.test.ts.
 * @see docs/time-boxed.md, "Tested against a model"
 */

const { kinds, open } = useModelWorlds('tbmodel');

describe.each(kinds)('%s', (kind) => {
  const quick = kind === 'SQLite' ? 60 : 10;
  test(
    'any order of asks, approvals, windows, sweeps, crashes and faults keeps the service as the model says',
    async () => {
      await assertModel(
        fc.asyncProperty(fc.commands(checkedCommands, commandsOptions(50)), async (commands) => {
          const w = await open(kind);
          try {
            const model = await initialModel(w);
            await fc.asyncModelRun(async () => ({ model, real: w }), commands);
            await drain(model, w);
          } finally {
            await w.close();
          }
        }),
        quick,
      );
    },
    timeLimit(quick, 10_000),
  );
});
