// An ordinary account for tests that must hold as root and as an unprivileged user (sandbox and
// gate attacks). When the suite runs as root, test/globalSetup.ts creates one account per run
// (`wavet-<hex>`, with a real home directory in the password database) and removes it at the end;
// tests reach it through `testAccounts()`. Not root: the suite already runs unprivileged, and the
// root variant is skipped.
import { inject } from "vitest";

export interface TestUser {
  name: string;
  uid: number;
  gid: number;
  /** The home directory the password database names (0700, owned by the account). */
  home: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    testUser: TestUser | null;
  }
}

/** How a test runs a program as one account: `wrap(argv)` is the argv to spawn instead. */
export interface TestAccount {
  /** "root" or "user": for test names. */
  label: "root" | "user";
  uid: number;
  gid: number;
  /** The account's home directory from the password database. */
  home: string;
  wrap: (argv: string[]) => string[];
}

export const isRoot = process.getuid?.() === 0;

/** The unprivileged account of this run, or undefined when the suite does not run as root. */
export function testUser(): TestUser | undefined {
  return inject("testUser") ?? undefined;
}

/** `argv` run as `user`, with its groups (setpriv, util-linux); the environment is the caller's to give. */
export function asUser(user: TestUser, argv: string[]): string[] {
  return ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--init-groups", ...argv];
}

/**
 * The accounts an attack runs as: as root, root itself and this run's unprivileged user; not as
 * root, only the current user (labelled "user").
 */
export function testAccounts(): TestAccount[] {
  const me = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, home: process.env.HOME ?? "/" };
  if (!isRoot) return [{ label: "user", ...me, wrap: (argv) => argv }];
  const user = testUser();
  if (!user) throw new Error("test/globalSetup.ts did not create the unprivileged test account (is useradd installed?)");
  return [
    { label: "root", ...me, wrap: (argv) => argv },
    { label: "user", uid: user.uid, gid: user.gid, home: user.home, wrap: (argv) => asUser(user, argv) },
  ];
}
