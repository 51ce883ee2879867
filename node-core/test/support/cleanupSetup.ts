// Vitest setup file: when a test file ends, the scratch directories its tests made go (scratch.ts).
import { afterAll } from "vitest";
import { removeScratchDirs } from "./scratch.js";

afterAll(() => removeScratchDirs());
