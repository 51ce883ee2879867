// Whether a process exists, for sweeps that remove what dead core processes left behind.

/** True unless the system says there is no such process (EPERM: alive, someone else's). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
