// Injected platforms for the branches that cannot run here (Windows, macOS): the host's
// behaviour with some parts replaced, and that platform's path rules.
import path from "node:path";
import { hostPlatform, type Platform, type PlatformName } from "../../src/util/platform.js";

export function platformWith(overrides: Partial<Platform> & { name: PlatformName }): Platform {
  return {
    ...hostPlatform(),
    path: overrides.name === "win32" ? path.win32 : path.posix,
    ...overrides,
  };
}
