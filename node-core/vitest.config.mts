import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real shells and process trees; two cores is the norm on CI machines.
    maxWorkers: 2,
    // Every tool result of every in-process core must carry a valid errorKind exactly when it is an error.
    // ... and no core log line reaches the console: a test claims and asserts the lines it provokes.
    // When a test file ends, the scratch directories its tests made go (test/support/scratch.ts).
    setupFiles: ["test/support/errorKindSetup.ts", "test/support/logSetup.ts", "test/support/cleanupSetup.ts"],
    // As root: an ordinary account for the tests that must also hold unprivileged (test/support/testUser.ts).
    globalSetup: ["test/globalSetup.ts"],
    // Cores started by tests do not probe the developer's own login shell: its speed and contents
    // are not the subject of those tests (a slow profile would stall every Bash call for up to
    // 8.4 s). The login-environment tests set their own HOME and clear this explicitly.
    env: { WAVE_LOGIN_ENV: "0" },
  },
  define: { __WAVE_CORE_VERSION__: JSON.stringify("0.0.0-test") },
});
