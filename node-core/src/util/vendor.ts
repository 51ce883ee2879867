// Bundled native tools (ugrep, bfs, rg) live in `<vendor>/<platform>-<arch>/`, beside the bundle.
// Resolved at each use, never at module load: a missing binary must only ever mean "fall back".
import path from "node:path";
import { isExecutableFile } from "./files.js";

export type VendorTool = "ugrep" | "bfs" | "rg";

/** `linux-x64`, `darwin-arm64`, `win32-x64`, ... */
export function platformTag(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  return `${platform}-${arch}`;
}

function entryDir(): string {
  // The bundle is one CommonJS file, so __dirname is its directory; under vitest it is src/util.
  return typeof __dirname === "string" ? __dirname : process.cwd();
}

/**
 * Vendor roots to look in, in order: WAVE_VENDOR_DIR (tests, packaging), `vendor/` beside the
 * bundle (the plugin zip), then `node-core/vendor/` when running from the repository.
 */
export function vendorRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.WAVE_VENDOR_DIR) return [env.WAVE_VENDOR_DIR];
  const here = entryDir();
  return [path.join(here, "vendor"), path.join(here, "..", "vendor"), path.join(here, "..", "..", "vendor")];
}

/** Absolute path of a bundled tool for this platform, or undefined when none is shipped. */
export function vendorBinary(tool: VendorTool, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const exe = process.platform === "win32" ? `${tool}.exe` : tool;
  for (const root of vendorRoots(env)) {
    const candidate = path.join(root, platformTag(), exe);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
