// scripts/check-vendor.mjs, which `gradle buildPlugin` runs: real Linux binaries (the static ripgrep
// npm installs, Debian's dynamically linked one, the vendor launch-script layout) and, for the
// platforms that cannot run here, Mach-O and PE files built below to their formats' layouts.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkVendorDir, readElf, readMachO, readPe } from "../scripts/check-vendor.mjs";
import { NODE_CORE_DIR, REAL_VENDOR_ROOT, requireRealVendor } from "./support/shims.js";
import { tempDir } from "./support/processes.js";

const SCRIPT = path.join(NODE_CORE_DIR, "scripts", "check-vendor.mjs");
const DEBIAN_RG = "/usr/bin/rg";

/** The static (musl) ripgrep of @vscode/ripgrep-linux-x64, an optional dependency npm installs on linux-x64. */
function staticRipgrep(): string {
  const file = createRequire(path.join(NODE_CORE_DIR, "package.json")).resolve("@vscode/ripgrep-linux-x64/bin/rg");
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm ci on linux-x64`);
  return file;
}

function vendorWith(files: Record<string, string | Buffer>, copies: Record<string, string> = {}): string {
  const root = tempDir("wave-check-vendor-");
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
    chmodSync(path.join(root, rel), 0o755);
  }
  for (const [rel, from] of Object.entries(copies)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    copyFileSync(from, path.join(root, rel));
    chmodSync(path.join(root, rel), 0o755);
  }
  return root;
}

// ---- format builders for the platforms that cannot run here ----

/** A thin 64-bit Mach-O: header, then one LC_LOAD_DYLIB (0xc) command per library. */
function machO(cpu: number, dylibs: string[]): Buffer {
  const commands = dylibs.map((name) => {
    const size = Math.ceil((24 + name.length + 1) / 8) * 8;
    const cmd = Buffer.alloc(size);
    cmd.writeUInt32LE(0xc, 0);
    cmd.writeUInt32LE(size, 4);
    cmd.writeUInt32LE(24, 8); // name offset
    cmd.write(name, 24, "utf8");
    return cmd;
  });
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeUInt32LE(cpu, 4);
  header.writeUInt32LE(2, 12); // MH_EXECUTE
  header.writeUInt32LE(commands.length, 16);
  header.writeUInt32LE(
    commands.reduce((n, c) => n + c.length, 0),
    20,
  );
  return Buffer.concat([header, ...commands]);
}

/** A universal (fat) Mach-O holding the given thin slices. */
function fat(slices: Buffer[]): Buffer {
  const header = Buffer.alloc(8 + slices.length * 20);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(slices.length, 4);
  let offset = 4096;
  const parts: Buffer[] = [header];
  slices.forEach((slice, i) => {
    header.writeUInt32BE(slice.readUInt32LE(4), 8 + i * 20);
    header.writeUInt32BE(offset, 16 + i * 20);
    header.writeUInt32BE(slice.length, 20 + i * 20);
    offset += Math.ceil(slice.length / 4096) * 4096;
  });
  let at = header.length;
  for (const slice of slices) {
    const start = Math.ceil(at / 4096) * 4096;
    parts.push(Buffer.alloc(start - at), slice);
    at = start + slice.length;
  }
  return Buffer.concat(parts);
}

/** A PE32+ file with one section holding an import directory that names `dlls`. */
function pe(machine: number, dlls: string[]): Buffer {
  const buf = Buffer.alloc(0x1000);
  buf.write("MZ", 0, "latin1");
  buf.writeUInt32LE(0x80, 0x3c);
  buf.writeUInt32BE(0x50450000, 0x80);
  buf.writeUInt16LE(machine, 0x84);
  buf.writeUInt16LE(1, 0x86); // one section
  buf.writeUInt16LE(240, 0x94); // optional header size
  const opt = 0x98;
  buf.writeUInt16LE(0x20b, opt); // PE32+
  const sectionVa = 0x1000;
  const sectionRaw = 0x400;
  buf.writeUInt32LE(sectionVa, opt + 112 + 8); // import directory RVA
  const table = opt + 240;
  buf.write(".idata", table, "latin1");
  buf.writeUInt32LE(0x800, table + 8); // virtual size
  buf.writeUInt32LE(sectionVa, table + 12);
  buf.writeUInt32LE(0x800, table + 16); // raw size
  buf.writeUInt32LE(sectionRaw, table + 20);
  let nameAt = sectionRaw + (dlls.length + 1) * 20;
  dlls.forEach((dll, i) => {
    buf.writeUInt32LE(sectionVa + (nameAt - sectionRaw), sectionRaw + i * 20 + 12);
    buf.write(dll + "\0", nameAt, "latin1");
    nameAt += dll.length + 1;
  });
  return buf;
}

const X64_MACHO = 0x01000007;
const ARM64_MACHO = 0x0100000c;

beforeAll(() => {
  requireRealVendor();
});

describe("check-vendor: Linux", () => {
  it("a statically linked ripgrep is portable; Debian's, linked against libpcre2, is refused with the fix", () => {
    expect(readElf(readFileSync(staticRipgrep()))).toMatchObject({ machine: 62, interp: null, needed: [] });
    const good = vendorWith({}, { "linux-x64/rg": staticRipgrep() });
    expect(checkVendorDir(good)).toEqual({ platforms: ["linux-x64"], problems: [] });

    const debian = vendorWith({}, { "linux-x64/rg": DEBIAN_RG });
    const { problems } = checkVendorDir(debian);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("is dynamically linked against libpcre2-8.so.0");
    expect(problems[0]).toContain("vendor-linux-x64.sh --portable");
  });

  it("the launch-script layout passes with all its libraries, and names the one that is missing", () => {
    const root = tempDir("wave-check-vendor-");
    cpSync(path.join(REAL_VENDOR_ROOT, "linux-x64"), path.join(root, "linux-x64"), { recursive: true, dereference: true });
    rmSync(path.join(root, "linux-x64", "rg"));
    expect(checkVendorDir(root).problems).toEqual([]);
    // ugrep needs libpcre2 (directly) and liblzma's users pull in more: take one away.
    rmSync(path.join(root, "linux-x64", "lib", "libpcre2-8.so.0"));
    const problems = checkVendorDir(root).problems;
    expect(problems.some((p) => p.includes("libexec/ugrep needs libpcre2-8.so.0"))).toBe(true);
  });

  it("a binary for another CPU, a script that is not a launcher, and a non-executable file are refused", () => {
    const wrongCpu = vendorWith({}, { "linux-arm64/rg": staticRipgrep() });
    expect(checkVendorDir(wrongCpu).problems[0]).toContain("built for ELF machine 62, not arm64");
    const script = vendorWith({ "linux-x64/ugrep": '#!/bin/sh\nexec /usr/bin/ugrep "$@"\n' });
    expect(checkVendorDir(script).problems[0]).toContain("without a wave-vendor-launch marker");
    const escaping = vendorWith({ "linux-x64/bfs": "#!/bin/sh\n# wave-vendor-launch: loader=/lib64/ld-linux-x86-64.so.2 libs=lib argv0=bfs binary=libexec/bfs\n" });
    expect(checkVendorDir(escaping).problems[0]).toContain("loader must be a path inside the folder");
    const plain = vendorWith({}, { "linux-x64/rg": staticRipgrep() });
    chmodSync(path.join(plain, "linux-x64", "rg"), 0o644);
    expect(checkVendorDir(plain).problems).toEqual([`${path.join(plain, "linux-x64", "rg")} is not executable`]);
  });
});

describe("check-vendor: macOS and Windows (headers only)", () => {
  it("Mach-O: system libraries pass, Homebrew's are refused, the folder's CPU must be in the file", () => {
    expect(readMachO(machO(ARM64_MACHO, ["/usr/lib/libSystem.B.dylib"]))).toEqual([{ cpu: ARM64_MACHO, dylibs: ["/usr/lib/libSystem.B.dylib"] }]);
    const ok = vendorWith({
      "darwin-arm64/ugrep": machO(ARM64_MACHO, ["/usr/lib/libSystem.B.dylib", "/usr/lib/libz.1.dylib", "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"]),
      "darwin-x64/bfs": fat([machO(ARM64_MACHO, ["/usr/lib/libSystem.B.dylib"]), machO(X64_MACHO, ["/usr/lib/libSystem.B.dylib"])]),
    });
    expect(checkVendorDir(ok).problems).toEqual([]);

    const brew = vendorWith({ "darwin-arm64/ugrep": machO(ARM64_MACHO, ["/opt/homebrew/opt/pcre2/lib/libpcre2-8.0.dylib", "/usr/lib/libSystem.B.dylib"]) });
    expect(checkVendorDir(brew).problems[0]).toContain("loads /opt/homebrew/opt/pcre2/lib/libpcre2-8.0.dylib");
    const wrongCpu = vendorWith({ "darwin-arm64/rg": machO(X64_MACHO, ["/usr/lib/libSystem.B.dylib"]) });
    expect(checkVendorDir(wrongCpu).problems[0]).toContain("has no arm64 code");
  });

  it("PE: Windows DLLs pass, the VC++ runtime only when it is shipped beside the .exe", () => {
    expect(readPe(pe(0x8664, ["KERNEL32.dll", "api-ms-win-crt-runtime-l1-1-0.dll"]))).toEqual({ machine: 0x8664, dlls: ["KERNEL32.dll", "api-ms-win-crt-runtime-l1-1-0.dll"] });
    const ok = vendorWith({ "win32-x64/rg.exe": pe(0x8664, ["KERNEL32.dll", "ntdll.dll", "bcryptprimitives.dll", "api-ms-win-core-synch-l1-2-0.dll"]) });
    expect(checkVendorDir(ok).problems).toEqual([]);

    const vc = vendorWith({ "win32-x64/ugrep.exe": pe(0x8664, ["KERNEL32.dll", "VCRUNTIME140.dll"]) });
    expect(checkVendorDir(vc).problems[0]).toContain("imports VCRUNTIME140.dll, which is neither part of Windows nor beside it");
    writeFileSync(path.join(vc, "win32-x64", "VCRUNTIME140.dll"), pe(0x8664, ["KERNEL32.dll"]));
    expect(checkVendorDir(vc).problems).toEqual([]);

    const wrongCpu = vendorWith({ "win32-arm64/rg.exe": pe(0x8664, ["KERNEL32.dll"]) });
    expect(checkVendorDir(wrongCpu).problems[0]).toContain("built for PE machine 0x8664, not arm64");
  });
});

describe("check-vendor: the command line gradle runs", () => {
  it("exit 0 when portable, 1 with the reasons otherwise, 1 when a --require'd platform has no tools", () => {
    const good = vendorWith({}, { "linux-x64/rg": staticRipgrep() });
    const ok = spawnSync(process.execPath, [SCRIPT, good], { encoding: "utf8" });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("linux-x64 in");

    const bad = spawnSync(process.execPath, [SCRIPT, vendorWith({}, { "linux-x64/rg": DEBIAN_RG })], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("is not portable");

    const missing = spawnSync(process.execPath, [SCRIPT, "--require", "linux-x64,darwin-arm64", good], { encoding: "utf8" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`${path.join(good, "darwin-arm64")}: required, but it holds none of ugrep, bfs, rg`);

    expect(spawnSync(process.execPath, [SCRIPT, "a", "b"], { encoding: "utf8" }).status).toBe(2);
  });
});
