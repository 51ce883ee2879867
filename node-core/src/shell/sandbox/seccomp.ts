// The seccomp filter bwrap installs (`--seccomp FD`) before it runs a sandboxed command: a classic
// BPF program generated here, for x86_64 and aarch64 only (the syscall numbers differ; a program
// for the wrong architecture would filter the wrong calls, so every other architecture gets none
// and the sandbox reports that its socket rule is off).
//
// What it refuses, with EPERM ("Operation not permitted"):
//  - socket(AF_UNIX, …) unless unix sockets are allow-listed (sandbox.allowUnixSockets): the
//    kernel lets a process connect to any filesystem socket it can name and write, whatever the
//    mounts say (a read-only bind does not stop connect), so the only complete rule is to create
//    no unix socket at all — tmux, screen, ssh-agent, Docker, D-Bus, X11, gpg-agent, an IDE's own
//    socket, and, with network `allow`, abstract sockets of the host. socketpair() stays: pipes
//    between a command's own processes (Node's child-process IPC, make's jobserver) use it.
//  - socket(AF_VSOCK): the host side of a VM (WSL 2 reaches Windows through it).
//  - io_uring: its requests open and connect sockets without the socket() call this filter sees.
//  - keyctl, add_key, request_key: the kernel keyrings hold tokens (Kerberos, ecryptfs) and are
//    shared by every process of an account.
//  - ioctl TIOCSTI and TIOCLINUX: pushing keystrokes into a terminal the command was handed.
//  - unshare and clone with CLONE_NEWUSER, and clone3 (ENOSYS, so the C library falls back to
//    clone, whose flags the filter can read): a new user namespace would give the command every
//    capability inside it again (bwrap's --disable-userns says the same where bwrap has it).
//  - every system call of another ABI (i386 `int 0x80`, x32): they bypass a filter written for
//    the native numbers.
import { arch as hostArch } from "node:os";

/** What one filter refuses beyond its fixed rules. */
export interface SeccompOptions {
  /** Refuse socket(AF_UNIX) (the default); false when unix sockets are allow-listed. */
  denyUnixSockets: boolean;
}

interface ArchTable {
  /** AUDIT_ARCH_* of seccomp_data.arch. */
  audit: number;
  /** Syscall numbers at or above this are another ABI on the same arch (x32), refused. */
  foreignFrom?: number;
  nr: Record<"socket" | "ioctl" | "io_uring_setup" | "io_uring_enter" | "io_uring_register" | "keyctl" | "add_key" | "request_key" | "unshare" | "clone" | "clone3", number>;
}

/** Syscall numbers from the kernel's tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h). */
export const SECCOMP_ARCHES: Readonly<Record<string, ArchTable>> = {
  x64: {
    audit: 0xc000003e,
    foreignFrom: 0x40000000,
    nr: { socket: 41, ioctl: 16, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, keyctl: 250, add_key: 248, request_key: 249, unshare: 272, clone: 56, clone3: 435 },
  },
  arm64: {
    audit: 0xc00000b7,
    nr: { socket: 198, ioctl: 29, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, keyctl: 219, add_key: 217, request_key: 218, unshare: 97, clone: 220, clone3: 435 },
  },
};

export const AF_UNIX = 1;
export const AF_VSOCK = 40;
export const TIOCSTI = 0x5412;
export const TIOCLINUX = 0x541c;
export const CLONE_NEWUSER = 0x10000000;
const EPERM = 1;
const ENOSYS = 38;

// Classic BPF opcodes (linux/filter.h, linux/bpf_common.h) and seccomp return values.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6].
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** The low 32 bits of argument i (little-endian on both supported arches): the kernel reads these arguments as int. */
const argLow = (i: number) => 16 + 8 * i;

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const insn = (code: number, k: number, jt = 0, jf = 0): Insn => ({ code, jt, jf, k });

/**
 * One rule: a syscall refused outright, or refused when an argument's low 32 bits equal one of the
 * values, or have a bit of `mask` set (and allowed otherwise).
 */
interface Rule {
  nr: number;
  arg?: number;
  values?: number[];
  mask?: number;
  errno?: number;
}

function rulesFor(table: ArchTable, opts: SeccompOptions): Rule[] {
  const { nr } = table;
  return [
    { nr: nr.socket, arg: 0, values: opts.denyUnixSockets ? [AF_UNIX, AF_VSOCK] : [AF_VSOCK] },
    { nr: nr.ioctl, arg: 1, values: [TIOCSTI, TIOCLINUX] },
    { nr: nr.io_uring_setup },
    { nr: nr.io_uring_enter },
    { nr: nr.io_uring_register },
    { nr: nr.keyctl },
    { nr: nr.add_key },
    { nr: nr.request_key },
    { nr: nr.unshare, arg: 0, mask: CLONE_NEWUSER },
    { nr: nr.clone, arg: 0, mask: CLONE_NEWUSER },
    { nr: nr.clone3, errno: ENOSYS },
  ];
}

/** The filter's instructions for `arch` (Node's `os.arch()` name), or undefined for an arch without a table. */
export function seccompProgram(opts: SeccompOptions, arch: string = hostArch()): Insn[] | undefined {
  const table = SECCOMP_ARCHES[arch];
  if (!table) return undefined;
  const deny = insn(RET_K, RET_ERRNO | EPERM);
  const allow = insn(RET_K, RET_ALLOW);
  // Built back to front so every jump knows how far its target is.
  let tail: Insn[] = [allow];
  for (const rule of rulesFor(table, opts).reverse()) {
    let block: Insn[];
    if (rule.mask !== undefined) block = [insn(LD_W_ABS, argLow(rule.arg!)), insn(JSET_K, rule.mask, 1, 0), allow, deny];
    else if (!rule.values) block = [rule.errno !== undefined ? insn(RET_K, RET_ERRNO | rule.errno) : deny];
    else {
      // ld arg; jeq v1 → deny; jeq v2 → deny; …; ret allow; deny
      const checks = rule.values.map((v, i) => insn(JEQ_K, v >>> 0, rule.values!.length - i, 0));
      block = [insn(LD_W_ABS, argLow(rule.arg!)), ...checks, allow, deny];
    }
    tail = [insn(JEQ_K, rule.nr, 0, block.length), ...block, ...tail];
  }
  const head: Insn[] = [insn(LD_W_ABS, OFFSET_ARCH)];
  const afterArch: Insn[] = [insn(LD_W_ABS, OFFSET_NR)];
  if (table.foreignFrom !== undefined) afterArch.push(insn(JGE_K, table.foreignFrom, 0, 1), deny);
  const body = [...afterArch, ...tail];
  // jeq arch → body, else the deny after it.
  head.push(insn(JEQ_K, table.audit, 0, body.length));
  const program = [...head, ...body, deny];
  for (const i of program) if (i.jt > 255 || i.jf > 255) throw new Error("seccomp program: jump too far");
  return program;
}

/** The program as bwrap reads it from its --seccomp descriptor: struct sock_filter[] in the host's byte order. */
export function encodeProgram(program: readonly Insn[]): Buffer {
  const out = Buffer.alloc(program.length * 8);
  program.forEach((i, n) => {
    out.writeUInt16LE(i.code, n * 8);
    out.writeUInt8(i.jt, n * 8 + 2);
    out.writeUInt8(i.jf, n * 8 + 3);
    out.writeUInt32LE(i.k >>> 0, n * 8 + 4);
  });
  return out;
}

/**
 * What the filter decides for one call, by running the program the way the kernel does: for tests
 * of the program itself (the sandbox tests run it in the kernel for real).
 */
export function runProgram(program: readonly Insn[], call: { arch: number; nr: number; args?: number[] }): "allow" | { errno: number } {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, OFFSET_NR);
  data.writeUInt32LE(call.arch >>> 0, OFFSET_ARCH);
  for (const [i, a] of (call.args ?? []).entries()) data.writeUInt32LE(a >>> 0, argLow(i));
  let acc = 0;
  for (let pc = 0; pc < program.length; ) {
    const i = program[pc]!;
    switch (i.code) {
      case LD_W_ABS:
        acc = data.readUInt32LE(i.k);
        pc++;
        break;
      case JEQ_K:
        pc += 1 + (acc === i.k ? i.jt : i.jf);
        break;
      case JGE_K:
        pc += 1 + (acc >= i.k ? i.jt : i.jf);
        break;
      case JSET_K:
        pc += 1 + ((acc & i.k) !== 0 ? i.jt : i.jf);
        break;
      case RET_K:
        return i.k === RET_ALLOW ? "allow" : { errno: i.k & 0xffff };
      default:
        throw new Error(`unknown opcode ${i.code}`);
    }
  }
  throw new Error("the program ran off its end");
}
