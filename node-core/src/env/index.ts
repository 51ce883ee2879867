// Seam for the login-shell environment (BASH-ENV). Everything that starts a child process takes
// its environment from here, so the probe's result reaches every child (BASH-ENV-8).

/**
 * The environment for a child process: the core's own `process.env` once the login-shell probe
 * has landed (or its budget ran out). Returns a copy the caller may extend.
 */
export async function childEnvironment(): Promise<NodeJS.ProcessEnv> {
  return { ...process.env };
}
