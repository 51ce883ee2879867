#!/usr/bin/env node
// Checks that every bundled search tool in a vendor directory (vendor/<platform>-<arch>/{ugrep,bfs,rg}[.exe])
// runs on any machine of its platform, by reading the binaries' headers — nothing is executed, so
// the release build can check all six platforms on one machine:
//   - Linux (ELF): statically linked; or dynamically linked against glibc's own libraries only; or a
//     vendor launch script (scripts/vendor-linux-x64.sh) whose loader, binary and every library the
//     binary and its libraries need are in the folder. A copy of a distribution's `rg` that needs
//     libpcre2 is refused.
//   - macOS (Mach-O, thin or universal): every library loaded from /usr/lib or /System/Library.
//   - Windows (PE): every DLL a Windows system DLL, or shipped beside the .exe.
//   - The CPU of each binary matches the folder's architecture.
//
//   node node-core/scripts/check-vendor.mjs [--require linux-x64,darwin-arm64,...] [VENDOR_DIR]
//
// Exit status: 0 portable (a platform without a folder is fine: its shims fall back to the system
// tools), 1 not portable or a --require'd platform missing, 2 usage error.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const TOOLS = ["ugrep", "bfs", "rg"];

/** The shared libraries every glibc-based Linux has (libc, libm, the loader, the GCC runtime). */
const GLIBC_BASE = new Set(["libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"]);

/** DLLs that are part of every supported Windows (10 and later); anything else must sit beside the .exe. */
const WINDOWS_SYSTEM_DLLS = new Set([
  "kernel32.dll",
  "kernelbase.dll",
  "ntdll.dll",
  "advapi32.dll",
  "user32.dll",
  "gdi32.dll",
  "shell32.dll",
  "ole32.dll",
  "oleaut32.dll",
  "ws2_32.dll",
  "bcrypt.dll",
  "bcryptprimitives.dll",
  "crypt32.dll",
  "secur32.dll",
  "userenv.dll",
  "shlwapi.dll",
  "version.dll",
  "psapi.dll",
  "dbghelp.dll",
  "ucrtbase.dll",
  "msvcrt.dll",
  "comdlg32.dll",
  "iphlpapi.dll",
  "rpcrt4.dll",
  "synchronization.dll",
  "netapi32.dll",
  "mswsock.dll",
]);

const ELF_MACHINES = { x64: 62, arm64: 183 };
const MACHO_CPUS = { x64: 0x01000007, arm64: 0x0100000c };
const PE_MACHINES = { x64: 0x8664, arm64: 0xaa64 };

const MARKER = /^# wave-vendor-launch: (.*)$/m;

// ---------- ELF ----------

/** `{ machine, interp, needed[] }` of a 64-bit little-endian ELF file, or a string saying why it is not one. */
export function readElf(buf) {
  if (buf.length < 64 || buf.readUInt32BE(0) !== 0x7f454c46) return "not an ELF file";
  if (buf[4] !== 2 || buf[5] !== 1) return "not a 64-bit little-endian ELF file";
  const machine = buf.readUInt16LE(18);
  const phoff = Number(buf.readBigUInt64LE(32));
  const phentsize = buf.readUInt16LE(54);
  const phnum = buf.readUInt16LE(56);
  const loads = [];
  let interp = null;
  let dynamic = null;
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (at + 56 > buf.length) return "a damaged ELF program header";
    const type = buf.readUInt32LE(at);
    const offset = Number(buf.readBigUInt64LE(at + 8));
    const vaddr = Number(buf.readBigUInt64LE(at + 16));
    const filesz = Number(buf.readBigUInt64LE(at + 32));
    if (type === 1) loads.push({ offset, vaddr, filesz });
    else if (type === 3) interp = buf.toString("latin1", offset, offset + filesz).replace(/\0.*$/s, "");
    else if (type === 2) dynamic = { offset, filesz };
  }
  const needed = [];
  if (dynamic) {
    const entries = [];
    let strtabAddr = null;
    for (let at = dynamic.offset; at + 16 <= dynamic.offset + dynamic.filesz; at += 16) {
      const tag = Number(buf.readBigInt64LE(at));
      const value = Number(buf.readBigUInt64LE(at + 8));
      if (tag === 0) break;
      if (tag === 5) strtabAddr = value;
      else if (tag === 1) entries.push(value);
    }
    if (entries.length > 0) {
      const seg = loads.find((l) => strtabAddr !== null && strtabAddr >= l.vaddr && strtabAddr < l.vaddr + l.filesz);
      if (!seg) return "an ELF dynamic section without a string table";
      const strtab = seg.offset + (strtabAddr - seg.vaddr);
      for (const off of entries) {
        const start = strtab + off;
        const end = buf.indexOf(0, start);
        needed.push(buf.toString("latin1", start, end < 0 ? buf.length : end));
      }
    }
  }
  return { machine, interp, needed };
}

// ---------- Mach-O ----------

const LOAD_DYLIB_COMMANDS = new Set([0xc, 0x80000018, 0x8000001f, 0x20, 0x80000023]);

/** `[{ cpu, dylibs[] }]`, one per architecture slice, or a string saying why it is not Mach-O. */
export function readMachO(buf) {
  if (buf.length < 32) return "not a Mach-O file";
  const magicBE = buf.readUInt32BE(0);
  if (magicBE === 0xcafebabe) {
    const slices = [];
    const count = buf.readUInt32BE(4);
    for (let i = 0; i < count; i++) {
      const at = 8 + i * 20;
      const offset = buf.readUInt32BE(at + 8);
      const size = buf.readUInt32BE(at + 12);
      const slice = readMachO(buf.subarray(offset, offset + size));
      if (typeof slice === "string") return slice;
      slices.push(...slice);
    }
    return slices;
  }
  if (buf.readUInt32LE(0) !== 0xfeedfacf) return "not a 64-bit Mach-O file";
  const cpu = buf.readUInt32LE(4);
  const ncmds = buf.readUInt32LE(16);
  const dylibs = [];
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    if (at + 8 > buf.length) return "a damaged Mach-O load command";
    const cmd = buf.readUInt32LE(at);
    const size = buf.readUInt32LE(at + 4);
    if (LOAD_DYLIB_COMMANDS.has(cmd)) {
      const nameOffset = buf.readUInt32LE(at + 8);
      const end = buf.indexOf(0, at + nameOffset);
      dylibs.push(buf.toString("utf8", at + nameOffset, end < 0 || end > at + size ? at + size : end));
    }
    if (size < 8) return "a damaged Mach-O load command";
    at += size;
  }
  return [{ cpu, dylibs }];
}

// ---------- PE ----------

/** `{ machine, dlls[] }` of a Windows executable, or a string saying why it is not one. */
export function readPe(buf) {
  if (buf.length < 64 || buf.toString("latin1", 0, 2) !== "MZ") return "not a Windows executable";
  const pe = buf.readUInt32LE(0x3c);
  if (pe + 24 > buf.length || buf.readUInt32BE(pe) !== 0x50450000) return "not a PE file";
  const machine = buf.readUInt16LE(pe + 4);
  const sections = buf.readUInt16LE(pe + 6);
  const optSize = buf.readUInt16LE(pe + 20);
  const opt = pe + 24;
  const magic = buf.readUInt16LE(opt);
  const dirs = opt + (magic === 0x20b ? 112 : 96);
  const importRva = buf.readUInt32LE(dirs + 8);
  const table = opt + optSize;
  const toOffset = (rva) => {
    for (let i = 0; i < sections; i++) {
      const s = table + i * 40;
      const va = buf.readUInt32LE(s + 12);
      const size = Math.max(buf.readUInt32LE(s + 8), buf.readUInt32LE(s + 16));
      if (rva >= va && rva < va + size) return buf.readUInt32LE(s + 20) + (rva - va);
    }
    return -1;
  };
  const dlls = [];
  if (importRva !== 0) {
    let desc = toOffset(importRva);
    if (desc < 0) return "a PE import table outside every section";
    for (; desc + 20 <= buf.length; desc += 20) {
      const nameRva = buf.readUInt32LE(desc + 12);
      if (nameRva === 0) break;
      const at = toOffset(nameRva);
      if (at < 0) return "a PE import name outside every section";
      dlls.push(buf.toString("latin1", at, buf.indexOf(0, at)));
    }
  }
  return { machine, dlls };
}

// ---------- the checks ----------

function fileHead(file, bytes = 4096) {
  const all = readFileSync(file);
  return bytes === Infinity ? all : all.subarray(0, bytes);
}

/** Problems with one Linux binary (an ELF file), given the folder its libraries may come from. */
function checkElf(file, arch, libDir) {
  const elf = readElf(readFileSync(file));
  if (typeof elf === "string") return [`${file}: ${elf}`];
  const problems = [];
  if (elf.machine !== ELF_MACHINES[arch]) problems.push(`${file}: built for ELF machine ${elf.machine}, not ${arch}`);
  if (elf.interp === null && elf.needed.length === 0) return problems;
  const missing = [];
  if (libDir) {
    // Everything the binary needs, and what those libraries need in turn, must be in libDir.
    const seen = new Set();
    const queue = [...elf.needed];
    while (queue.length > 0) {
      const name = queue.shift();
      if (seen.has(name) || /^ld-linux/.test(name)) continue;
      seen.add(name);
      const lib = path.join(libDir, name);
      if (!existsSync(lib)) {
        missing.push(name);
        continue;
      }
      const inner = readElf(readFileSync(lib));
      if (typeof inner === "string") problems.push(`${lib}: ${inner}`);
      else queue.push(...inner.needed);
    }
    if (missing.length > 0) problems.push(`${file} needs ${missing.join(", ")}, which ${libDir} does not hold`);
    return problems;
  }
  for (const name of elf.needed) if (!GLIBC_BASE.has(name)) missing.push(name);
  if (missing.length > 0) {
    problems.push(
      `${file} is dynamically linked against ${missing.join(", ")}, which not every Linux system has` +
        " (a distribution's own build?). Use a static build, or node-core/scripts/vendor-linux-x64.sh --portable.",
    );
  }
  return problems;
}

function checkLinuxTool(file, arch) {
  const head = fileHead(file).toString("latin1");
  if (!head.startsWith("#!")) return checkElf(file, arch, null);
  const m = MARKER.exec(head);
  if (!m) return [`${file} is a script without a wave-vendor-launch marker; only launch scripts from vendor-linux-x64.sh are allowed`];
  const fields = Object.fromEntries(
    m[1]
      .trim()
      .split(/\s+/)
      .map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]),
  );
  const dir = path.dirname(file);
  const problems = [];
  for (const key of ["loader", "libs", "binary"]) {
    if (!fields[key] || fields[key].startsWith("/") || fields[key].split("/").includes("..")) {
      problems.push(`${file}: the launch marker's ${key} must be a path inside the folder`);
    }
  }
  if (problems.length > 0) return problems;
  const loader = path.join(dir, fields.loader);
  const binary = path.join(dir, fields.binary);
  if (!existsSync(loader)) return [`${file}: its loader ${fields.loader} is missing`];
  if (!existsSync(binary)) return [`${file}: its binary ${fields.binary} is missing`];
  const loaderElf = readElf(readFileSync(loader));
  if (typeof loaderElf === "string") problems.push(`${loader}: ${loaderElf}`);
  return [...problems, ...checkElf(binary, arch, path.join(dir, fields.libs))];
}

function checkMacTool(file, arch) {
  const slices = readMachO(readFileSync(file));
  if (typeof slices === "string") return [`${file}: ${slices}`];
  const slice = slices.find((s) => s.cpu === MACHO_CPUS[arch]);
  if (!slice) return [`${file} has no ${arch} code (CPU types ${slices.map((s) => "0x" + s.cpu.toString(16)).join(", ")})`];
  const foreign = slice.dylibs.filter((d) => !d.startsWith("/usr/lib/") && !d.startsWith("/System/Library/"));
  return foreign.length > 0 ? [`${file} loads ${foreign.join(", ")}, which a Mac without Homebrew (or that build's prefix) does not have`] : [];
}

function checkWindowsTool(file, arch) {
  const pe = readPe(readFileSync(file));
  if (typeof pe === "string") return [`${file}: ${pe}`];
  const problems = [];
  if (pe.machine !== PE_MACHINES[arch]) problems.push(`${file}: built for PE machine 0x${pe.machine.toString(16)}, not ${arch}`);
  const dir = path.dirname(file);
  const foreign = pe.dlls.filter((d) => {
    const lower = d.toLowerCase();
    return !WINDOWS_SYSTEM_DLLS.has(lower) && !/^api-ms-win-|^ext-ms-win-/.test(lower) && !existsSync(path.join(dir, d));
  });
  if (foreign.length > 0) problems.push(`${file} imports ${foreign.join(", ")}, which is neither part of Windows nor beside it`);
  return problems;
}

/**
 * The problems of one platform folder (`linux-x64`, `darwin-arm64`, `win32-x64`, ...); empty when
 * every tool in it is portable. Tools that are absent are fine (the shims fall back for them).
 */
export function checkPlatformDir(dir) {
  const tag = path.basename(dir);
  const m = /^(linux|darwin|win32)-(x64|arm64)$/.exec(tag);
  if (!m) return [`${dir}: not a <platform>-<arch> folder the core looks in (linux, darwin or win32; x64 or arm64)`];
  const [, platform, arch] = m;
  const problems = [];
  for (const tool of TOOLS) {
    const file = path.join(dir, platform === "win32" ? `${tool}.exe` : tool);
    if (!existsSync(file)) continue;
    if (!statSync(file).isFile()) {
      problems.push(`${file} is not a file`);
      continue;
    }
    if (platform !== "win32" && (statSync(file).mode & 0o111) === 0) problems.push(`${file} is not executable`);
    const check = platform === "linux" ? checkLinuxTool : platform === "darwin" ? checkMacTool : checkWindowsTool;
    problems.push(...check(file, arch));
  }
  return problems;
}

/** `{ platforms, problems }` for a whole vendor directory; `required` platforms must have at least one tool. */
export function checkVendorDir(vendorDir, required = []) {
  const platforms = existsSync(vendorDir)
    ? readdirSync(vendorDir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith("."))
        .map((e) => e.name)
        .sort()
    : [];
  const problems = [];
  for (const tag of platforms) problems.push(...checkPlatformDir(path.join(vendorDir, tag)));
  for (const tag of required) {
    const dir = path.join(vendorDir, tag);
    const exe = tag.startsWith("win32-") ? ".exe" : "";
    if (!TOOLS.some((t) => existsSync(path.join(dir, t + exe)))) problems.push(`${dir}: required, but it holds none of ${TOOLS.join(", ")}`);
  }
  return { platforms, problems };
}

function main(argv) {
  let required = [];
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--require") {
      if (i + 1 >= argv.length) {
        console.error("check-vendor: --require needs a comma-separated list of platforms");
        return 2;
      }
      required = argv[++i]
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    } else if (argv[i] === "-h" || argv[i] === "--help") {
      console.log("Usage: check-vendor.mjs [--require linux-x64,darwin-arm64,...] [VENDOR_DIR]");
      return 0;
    } else rest.push(argv[i]);
  }
  if (rest.length > 1) {
    console.error("check-vendor: one vendor directory at most");
    return 2;
  }
  const vendorDir = path.resolve(rest[0] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "vendor"));
  const { platforms, problems } = checkVendorDir(vendorDir, required);
  if (problems.length > 0) {
    console.error(`check-vendor: ${vendorDir} is not portable:\n  ${problems.join("\n  ")}`);
    return 1;
  }
  console.log(`check-vendor: ${platforms.length > 0 ? platforms.join(", ") : "no platform folders"} in ${vendorDir}: portable`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
