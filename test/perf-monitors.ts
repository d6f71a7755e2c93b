import perfHooks from 'node:perf_hooks';

/** Counts of the monitors Node runs for process metrics. */
export interface PerfMonitors {
  /** Event-loop delay histograms (`monitorEventLoopDelay`), each a libuv timer. */
  eventLoop: number;
  /** PerformanceObservers of garbage collections. */
  gc: number;
}

export interface PerfMonitorWatch {
  /** How many monitors were started since the watch began. */
  started(): PerfMonitors;
  /** The sampling interval (ms) each event-loop monitor was started with (Node's default: 10). */
  resolutions(): number[];
  /** Ends the watch and says how many of the monitors it saw are still running (stopping them). */
  end(): PerfMonitors;
}

/**
 * Watches the monitors started through `node:perf_hooks` (prom-client's event-loop lag and GC
 * metrics use them), so a test can tell whether what was started has been stopped.
 */
export function watchPerfMonitors(): PerfMonitorWatch {
  const hooks: Pick<typeof perfHooks, 'monitorEventLoopDelay'> = perfHooks;
  const prototype = perfHooks.PerformanceObserver.prototype;
  const { monitorEventLoopDelay } = hooks;
  const { observe, disconnect } = prototype;
  const histograms: perfHooks.IntervalHistogram[] = [];
  const resolutions: number[] = [];
  let gcStarted = 0;
  const gcRunning = new Set<perfHooks.PerformanceObserver>();

  hooks.monitorEventLoopDelay = (options) => {
    const histogram = monitorEventLoopDelay(options);
    histograms.push(histogram);
    resolutions.push(options?.resolution ?? 10);
    return histogram;
  };
  prototype.observe = function watchedObserve(this: perfHooks.PerformanceObserver, options) {
    const types = 'type' in options ? [options.type] : options.entryTypes;
    if (types.includes('gc') && !gcRunning.has(this)) {
      gcStarted += 1;
      gcRunning.add(this);
    }
    observe.call(this, options);
  };
  prototype.disconnect = function watchedDisconnect(this: perfHooks.PerformanceObserver) {
    gcRunning.delete(this);
    disconnect.call(this);
  };

  return {
    started: () => ({ eventLoop: histograms.length, gc: gcStarted }),
    resolutions: () => [...resolutions],
    end() {
      hooks.monitorEventLoopDelay = monitorEventLoopDelay;
      prototype.observe = observe;
      prototype.disconnect = disconnect;
      // disable() answers whether the histogram was still enabled.
      const eventLoop = histograms.filter((histogram) => histogram.disable()).length;
      const gc = gcRunning.size;
      for (const observer of gcRunning) observer.disconnect();
      return { eventLoop, gc };
    },
  };
}
