import fc from 'fast-check';
import { APPROVALS_POLICY, approvalCommands, initialApprovalModel } from './approvals-model.js';
import { assertModel, commandsOptions, timeLimit, useModelWorlds } from './world.js';

/**
 * The approval state machine against a model of a few lines: asks, approvals by two leads, by a
 * delegate and by people who may not approve, clicks Slack delivers twice to two replicas,
 * rejections, cancels, break-glass within its limit, delegations opened and ended, and expiry,
 * in any order fast-check draws. A failure prints the seed and path; replay it with
 * VIDOPS_MODEL_SEED and VIDOPS_MODEL_PATH. Each counterexample found stays in
 * approvals.examples.test.ts.
 * @see docs/testing.md, "Model-based tests"
 */

const { kinds, open } = useModelWorlds('apmodel', APPROVALS_POLICY);

describe.each(kinds)('%s', (kind) => {
  const quick = kind === 'SQLite' ? 150 : 30;
  test(
    'any order of approvals, rejections, cancels, break-glass, delegations and expiry runs each request at most once, as the model says',
    async () => {
      await assertModel(
        fc.asyncProperty(fc.commands(approvalCommands, commandsOptions(40)), async (commands) => {
          const w = await open(kind);
          try {
            await fc.asyncModelRun(async () => ({ model: initialApprovalModel(w), real: w }), commands);
          } finally {
            await w.close();
          }
        }),
        quick,
      );
    },
    timeLimit(quick, 5_000),
  );
});
