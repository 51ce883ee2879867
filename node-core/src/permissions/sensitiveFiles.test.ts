// Issue 23 §4: the sensitive workspace files, completed from each tool's documentation (direnv,
// mise/asdf, lefthook/husky/pre-commit and friends, dev containers, VS Code/JetBrains/Zed/Fleet/
// Helix/Emacs/Sublime project files, package managers' hooks and plugins, cargo and rustup), and
// the file `yarnPath` names, whatever it is called. Writing one with Write/Edit is asked, and a
// command writing one carries the sensitive-path warning; ordinary look-alikes stay allowed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SENSITIVE_WORKSPACE } from "../base/sensitive.js";
import { decideCommand, decidePath, readPlace, type DecideContext } from "./decide.js";
import { secretForReadOnly, sensitiveInside } from "./sensitive.js";
import { parseRule } from "./rules.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";

let lib: SyntaxLibraries;
const dirs: string[] = [];
beforeAll(async () => {
  lib = await loadSyntax();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(): { ws: string; ctx: DecideContext } {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-sensitive-")));
  dirs.push(base);
  const ws = path.join(base, "ws");
  mkdirSync(ws);
  return { ws, ctx: { cwd: ws, root: ws, allowedDirectories: [ws], home: path.join(base, "home"), tempDir: path.join(base, "tmp") } };
}

/** The issue's list, then the rest of each family from the tools' documentation. */
const SENSITIVE = [
  // mise: local and environment-specific names, and its folders.
  ".mise.local.toml",
  "mise.local.toml",
  "mise.dev.toml",
  ".mise.staging.local.toml",
  ".mise/config.toml",
  ".mise/tasks/build",
  "mise/config.toml",
  ".config/mise.toml",
  ".config/mise/config.toml",
  ".config/mise/conf.d/10-hooks.toml",
  ".tool-versions",
  // lefthook in every format, local overrides, and .config/.
  "lefthook.toml",
  "lefthook.json",
  ".lefthook.yaml",
  "lefthook-local.yml",
  ".lefthook-local.toml",
  "lefthook.jsonc",
  ".config/lefthook.yml",
  // husky v4, simple-git-hooks, overcommit.
  ".huskyrc.json",
  "husky.config.js",
  ".simple-git-hooks.json",
  "simple-git-hooks.cjs",
  ".overcommit.yml",
  // dev containers: the official file beside .devcontainer/, and Gitpod.
  ".devcontainer.json",
  ".devcontainer/python/devcontainer.json",
  ".gitpod.yml",
  // editors' workspace, task and run files.
  "app.code-workspace",
  "sub/team.CODE-WORKSPACE",
  ".run/App.run.xml",
  "legacy.ipr",
  "legacy.iws",
  ".helix/languages.toml",
  ".dir-locals.el",
  "tools.sublime-project",
  // agents.
  ".kiro/hooks/on-save.json",
  "opencode.json",
  ".aider.conf.yml",
  // package managers: Yarn's release and plugins, Plug'n'Play's runtime, cargo, rustup.
  ".yarn/releases/yarn-4.5.0.cjs",
  ".yarn/plugins/@yarnpkg/plugin-evil.cjs",
  ".pnp.cjs",
  ".pnp.loader.mjs",
  ".cargo/config.toml",
  ".cargo/config",
  "rust-toolchain.toml",
  "rust-toolchain",
];

const ORDINARY = [
  "src/index.ts",
  "package.json",
  "config.toml",
  ".config/app.toml",
  "mise-notes.md",
  "docs/mise.md",
  ".yarn/cache/lodash.zip",
  "releases/v1.txt",
  "cargo/config.toml",
  "run/x.xml",
  "toolchain.md",
  "workspace.code-workspace.md",
];

describe("issue 23 §4: sensitive workspace files, completed", () => {
  it.each(SENSITIVE)("Write of %s is asked, denied in deny-all, allowed only by a rule that names it", (rel) => {
    const { ctx } = workspace();
    const ask = decidePath(rel, ctx, { allow: [], deny: [] }, "ask", lib);
    expect(ask.outcome, ask.reason).toBe("ask");
    expect(ask.warnings.map((w) => w.id)).toContain("sensitive-path");
    expect(decidePath(rel, ctx, { allow: [], deny: [] }, "deny-all", lib).outcome).toBe("deny");
    expect(decidePath(rel, ctx, { allow: [parseRule("Write(**)", lib)], deny: [] }, "deny-all", lib).outcome).toBe("deny");
    expect(decidePath(rel, ctx, { allow: [parseRule(`Write(${rel})`, lib)], deny: [] }, "deny-all", lib).outcome).toBe("allow");
    // A command writing it carries the warning too, so even a sandboxed run is asked.
    const cmd = decideCommand(`mkdir -p "$(dirname ${rel})"; echo x > ${rel}`, ctx, { allow: [], deny: [] }, "ask", lib, { sandboxed: true });
    expect(
      cmd.warnings.map((w) => w.id),
      cmd.reason,
    ).toContain("sensitive-path");
  });

  it.each(ORDINARY)("%s stays an ordinary file", (rel) => {
    const { ctx } = workspace();
    expect(decidePath(rel, ctx, { allow: [], deny: [] }, "deny-all", lib).outcome).toBe("allow");
  });

  it("the file yarnPath names is sensitive whatever it is called (Yarn 2+ and Yarn 1), named by an rc in a folder on its way from the root", () => {
    const { ws, ctx } = workspace();
    writeFileSync(path.join(ws, ".yarnrc.yml"), "nodeLinker: node-modules\nyarnPath: tools/yarn-custom.js  # pinned\n");
    mkdirSync(path.join(ws, "legacy"));
    writeFileSync(path.join(ws, "legacy", ".yarnrc"), 'yarn-path "./vendor/yarn-1.22.cjs"\n');
    for (const rel of ["tools/yarn-custom.js", "legacy/vendor/yarn-1.22.cjs"]) {
      const d = decidePath(rel, ctx, { allow: [], deny: [] }, "deny-all", lib);
      expect(d.outcome, rel).toBe("deny");
      expect(d.reason).toMatch(/yarnPath|every yarn command/);
    }
    expect(decidePath("tools/other.js", ctx, { allow: [], deny: [] }, "deny-all", lib).outcome).toBe("allow");
  });

  it("entries that need their parent folder never stand alone: the sandbox, which sees one name at a time, skips them", () => {
    for (const e of SENSITIVE_WORKSPACE.filter((x) => x.parent)) {
      for (const name of ["config.toml", "config", "releases", "plugins", "mise", "lefthook.yml"]) {
        if (!e.name.test(name)) continue;
        // The same name at the root of a workspace is judged by the entries without a parent only.
        const { ctx } = workspace();
        const standalone = SENSITIVE_WORKSPACE.some((x) => !x.parent && x.name.test(name));
        expect(decidePath(name, ctx, { allow: [], deny: [] }, "deny-all", lib).outcome === "deny", name).toBe(standalone);
      }
    }
  });
});

describe("credential files named by absolute path (base/credentials.ts, the list the sandbox masks)", () => {
  it("a kubeconfig that $KUBECONFIG names outside the home is a credential store to the file tools and the read-only list", () => {
    const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-named-creds-")));
    const saved = process.env.KUBECONFIG;
    try {
      const home = path.join(base, "home");
      const cluster = path.join(base, "clusters", "prod.yaml");
      mkdirSync(home, { recursive: true });
      mkdirSync(path.dirname(cluster));
      writeFileSync(cluster, "token: x");
      const ctx = { cwd: base, home, homes: [home], stateDirectories: [] };
      expect(readPlace(cluster, ctx).sensitive).toBeUndefined();
      process.env.KUBECONFIG = `/nonexistent/config:${cluster}`;
      expect(readPlace(cluster, ctx).sensitive?.anchor).toBe(cluster);
      expect(secretForReadOnly(cluster, { homes: [home] })).toBe(true);
      expect(sensitiveInside(base, { homes: [home] })).toContain(cluster);
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
      rmSync(base, { recursive: true, force: true });
    }
  });

  it("the system's root-only secrets are asked about by path (an administrator's Kubernetes configuration)", () => {
    expect(secretForReadOnly("/etc/kubernetes/admin.conf", { homes: ["/home/nobody"] })).toBe(true);
    expect(secretForReadOnly("/etc/kubernetes/pki/ca.key", { homes: ["/home/nobody"] })).toBe(true);
    expect(secretForReadOnly("/etc/kubernetes/manifests/x.yaml", { homes: ["/home/nobody"] })).toBe(false);
  });
});
