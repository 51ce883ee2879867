// Bundled native tools (ugrep, bfs, rg) live in `<vendor>/<platform>-<arch>/`, beside the bundle.
// Resolved at each use, never at module load: a missing binary must only ever mean "fall back".
import path from "node:path";
import { isExecutableFile } from "./files.js";

export type VendorTool = "ugrep" | "bfs" | "rg";

/** `linux-x64`, `darwin-arm64`, `win32-x64`, ... */
export function platformTag(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  return `${platform}-${arch}`;
}

/**
 * The vendor folders that can serve this platform, best first: its own, then on Windows on ARM the
 * x64 one (Windows 11 on ARM runs x64 programs; the plugin may ship only win32-x64 there). macOS on
 * ARM gets no x64 fallback: Rosetta is not always installed, and a helper that does not start would
 * only cost a failed probe.
 */
export function platformTags(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string[] {
  const own = platformTag(platform, arch);
  return platform === "win32" && arch === "arm64" ? [own, platformTag(platform, "x64")] : [own];
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

/** Every place a bundled tool for this platform may be, in the order they are tried. */
export function vendorCandidates(tool: VendorTool, roots: string[], platform: NodeJS.Platform = process.platform, arch: string = process.arch): string[] {
  const exe = platform === "win32" ? `${tool}.exe` : tool;
  return roots.flatMap((root) => platformTags(platform, arch).map((tag) => path.join(root, tag, exe)));
}

/** Absolute path of a bundled tool for this platform, or undefined when none is shipped. */
export function vendorBinary(tool: VendorTool, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return vendorCandidates(tool, vendorRoots(env)).find(isExecutableFile);
}
