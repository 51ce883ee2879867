// Giving memory back after a burst. The heap V8 grew for a burst of work stays that size until
// V8 decides, after a long idle, to shrink it (10,000 queued requests left a core at 2× its size
// for minutes). One full collection once things are quiet returns it to the system.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | null | undefined;
let timer: NodeJS.Timeout | undefined;

/** V8's collector, made reachable without a command-line flag; null where that is not possible. */
function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as () => void;
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** After a burst: one full collection, `quietMs` after the last call (calls in between push it back). */
export function releaseMemoryWhenQuiet(quietMs = 1000): void {
  clearTimeout(timer);
  timer = setTimeout(() => collector()?.(), quietMs);
  timer.unref();
}
