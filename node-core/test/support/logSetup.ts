// Vitest setup file: no core log line reaches the console of a passing run (test/support/logs.ts).
import { installLogGuard } from "./logs.js";

installLogGuard();
