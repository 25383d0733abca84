/** The signals that ask a command to stop: a process manager's SIGTERM, a terminal's Ctrl-C. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

export interface StopSignals {
  /** The first stop signal received, or null while none has come. */
  readonly received: StopSignal | null;
  /** Stops listening (the signals get their default action again). */
  dispose(): void;
}

/**
 * Calls `onFirst` at the first SIGINT or SIGTERM and absorbs every later one while the stop runs.
 * A stop is usually asked twice: a process manager or a terminal signals the whole process group,
 * and npm, in that group, forwards the signal to its script again. Left to its default action,
 * the second one would kill the process half-way through its stop.
 */
export function onStopSignals(
  onFirst: (signal: StopSignal) => void,
  log: (line: string) => void = (line) => console.log(line),
): StopSignals {
  let received: StopSignal | null = null;
  const handle = (signal: StopSignal) => {
    if (received) {
      log(`${signal} while stopping: the stop goes on`);
      return;
    }
    received = signal;
    onFirst(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handle);
  return {
    get received() {
      return received;
    },
    dispose() {
      for (const signal of STOP_SIGNALS) process.off(signal, handle);
    },
  };
}
