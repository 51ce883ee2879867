// setTimeout caps delays at 2^31-1 ms (about 24.8 days) and fires at once beyond that; timeouts
// above 600000 ms are used as given (BASH-TO-3), so long ones are chained.
const MAX_DELAY = 2 ** 31 - 1;

/** Calls `fn` after `ms` milliseconds, however large; returns a cancel function. */
export function longTimeout(ms: number, fn: () => void): () => void {
  let handle: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = (remaining: number) => {
    if (remaining > MAX_DELAY) {
      handle = setTimeout(() => arm(remaining - MAX_DELAY), MAX_DELAY);
    } else {
      handle = setTimeout(
        () => {
          if (!cancelled) fn();
        },
        Math.max(0, remaining),
      );
    }
  };
  arm(ms);
  return () => {
    cancelled = true;
    if (handle) clearTimeout(handle);
  };
}
