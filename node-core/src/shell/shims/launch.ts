// How to start a bundled binary. A vendor directory built by scripts/vendor-linux-x64.sh holds, for
// each tool taken from Debian, a small sh script that starts the real binary through the bundled
// dynamic loader. The script names its parts on a marker line; starting the loader directly saves
// the shell the script costs on every grep/find (see bench/shims.bench.mjs).
import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { isFile } from "../../util/files.js";

export interface Launch {
  /** Words that start the tool; the caller appends the tool's own arguments. */
  command: string[];
  /** Files that must all exist and be executable for `command` to work. */
  requires: string[];
}

const MARKER = /^# wave-vendor-launch: (.*)$/m;
const MAX_SCRIPT_BYTES = 4096;

/** The fields of a marker line: `loader=… libs=… argv0=… binary=…` (paths relative to the script). */
export function parseLaunchMarker(script: string): Record<string, string> | undefined {
  const m = MARKER.exec(script);
  if (!m) return undefined;
  const fields: Record<string, string> = {};
  for (const word of m[1]!.trim().split(/\s+/)) {
    const eq = word.indexOf("=");
    if (eq > 0) fields[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return fields.loader && fields.libs && fields.argv0 && fields.binary ? fields : undefined;
}

function readHead(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(MAX_SCRIPT_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("latin1");
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

/**
 * How to start `file`: through its loader when it is a vendor launch script whose parts are all
 * present, otherwise by itself (system copies, Windows .exe files, test wrappers).
 */
export function resolveLaunch(file: string): Launch {
  const direct: Launch = { command: [file], requires: [file] };
  let head: string;
  try {
    head = readHead(file);
  } catch {
    return direct;
  }
  if (!head.startsWith("#!")) return direct;
  const fields = parseLaunchMarker(head);
  if (!fields) return direct;
  const dir = path.dirname(file);
  const loader = path.resolve(dir, fields.loader!);
  const libs = path.resolve(dir, fields.libs!);
  const binary = path.resolve(dir, fields.binary!);
  if (!isFile(loader) || !isFile(binary)) return direct;
  return { command: [loader, "--library-path", libs, "--argv0", fields.argv0!, binary], requires: [file, loader, binary] };
}
