import type {
  App,
  BlockAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';

/**
 * Button and modal handlers by exact `action_id` / `callback_id`, behind one Bolt listener per
 * kind. Bolt runs every registered listener's middleware chain for every request (an object spread,
 * an array copy and a promise each, before the chain sees the request is not its kind), so with
 * some twenty handlers that fan-out cost as much CPU as the rest of an acknowledgement; here a
 * request goes through one chain and a map look-up instead (see bench/slack.ts).
 * Matching is what `app.action(id)` and `app.view(id)` do: a block action by its `action_id`, a
 * `view_submission` by its view's `callback_id`; a request no handler takes is not acknowledged,
 * as with Bolt.
 * @see docs/architecture.md, "Architecture" (every action_id and callback_id lives in one ids module)
 */
export interface SlackRoutes {
  /** A block action (button, select…) by its `action_id`. */
  action(actionId: string, listener: Middleware<SlackActionMiddlewareArgs<BlockAction>>): void;
  /** A modal submission (`view_submission`) by its view's `callback_id`. */
  view(callbackId: string, listener: Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>): void;
  /** An Events API event by its type, as `app.event` (vidops listens to one). */
  event<E extends string>(type: E, listener: Middleware<SlackEventMiddlewareArgs<E>>): void;
}

/** Routes on `app`: the action and view listeners are added to Bolt at the first registration. */
export function createSlackRoutes(app: App): SlackRoutes {
  const actions = new Map<string, Middleware<SlackActionMiddlewareArgs<BlockAction>>>();
  const views = new Map<string, Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>>();

  const add = <T>(routes: Map<string, T>, kind: string, id: string, listener: T): boolean => {
    // One handler per ID: a second one is a mistake in the ids module, found at start.
    if (routes.has(id)) throw new Error(`two handlers for the ${kind} "${id}"`);
    routes.set(id, listener);
    return routes.size === 1;
  };

  return {
    action(actionId, listener) {
      if (!add(actions, 'action', actionId, listener)) return;
      app.action<BlockAction>({ type: 'block_actions' }, async (args) => {
        await actions.get(args.action.action_id)?.(args);
      });
    },
    view(callbackId, listener) {
      if (!add(views, 'view', callbackId, listener)) return;
      app.view<ViewSubmitAction>({ type: 'view_submission' }, async (args) => {
        await views.get(args.view.callback_id)?.(args);
      });
    },
    event(type, listener) {
      app.event(type, listener);
    },
  };
}
