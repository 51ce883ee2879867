// Serialises work on one file across every session of the core, so two Edits of the same file
// never interleave their read-modify-write (no lost update). An entry lives only while someone
// holds or waits for the lock: the map is empty whenever the core is idle.

// Process-wide on purpose: the file is one, whichever core writes it, so two cores in one
// process take turns on it too.
const tails = new Map<string, Promise<void>>();

/** Runs `fn` once every earlier holder of `key` has finished; returns its result. */
export async function withFileLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    // Only the last waiter removes the entry; a later caller has replaced it otherwise.
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/** How many files currently have a holder or waiters (for tests and diagnostics). */
export function lockedFileCount(): number {
  return tails.size;
}
