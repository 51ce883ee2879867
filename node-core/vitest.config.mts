import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real shells and process trees; two cores is the norm on CI machines.
    maxWorkers: 2,
    define: {},
  },
  define: { __WAVE_CORE_VERSION__: JSON.stringify("0.0.0-test") },
});
