// Workspace files that run code or grant permissions later (docs/user/permissions.md, "Sensitive workspace files"):
// the permission gate asks before writing one (permissions/sensitive.ts), and the OS sandbox keeps
// the same ones read-only inside writable directories (shell/sandbox/policy.ts). One list for both.

export interface SensitiveEntry {
  /** A path segment pattern, matched at any depth below an allowed directory. */
  readonly name: RegExp;
  /** A directory: everything below it counts. */
  readonly directory: boolean;
  /**
   * The segment right above must match too (`.config/mise.toml`, `.yarn/releases`): the entry is
   * not a name on its own, so a check that sees one name at a time (the sandbox's) skips it.
   */
  readonly parent?: RegExp;
  /** What it does, for messages and docs/user/permissions.md. */
  readonly what: string;
}

/**
 * Workspace files that run code or grant permissions later (docs/user/permissions.md, "Sensitive workspace files"):
 * each tool's documented configuration, hook, task and plugin files, as named in its docs.
 * Names match without regard to case: on macOS and Windows `.GIT/config` is `.git/config`.
 */
export const SENSITIVE_WORKSPACE: readonly SensitiveEntry[] = [
  { name: /^\.git$/i, directory: true, what: "git's configuration, hooks and repository link (core.fsmonitor, hooks, gitdir: run programs on the next git command)" },
  { name: /^\.gitmodules$/i, directory: false, what: "git submodule definitions (what git clones and checks out)" },
  { name: /^\.envrc$/i, directory: false, what: "direnv runs it when a shell enters the directory" },
  {
    name: /^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zshenv|\.zprofile|\.zlogin|\.zlogout|\.gitconfig)$/i,
    directory: false,
    what: "a shell or git start-up file (read when this directory is HOME or ZDOTDIR)",
  },
  { name: /^(\.exrc|\.nvimrc|\.nvim\.lua)$/i, directory: false, what: "vim/neovim run it when they open files here (exrc)" },
  { name: /^(\.dir-locals(-2)?\.el)$/i, directory: false, what: "Emacs evaluates its eval: forms when it opens a file here" },
  { name: /^\.claude$/i, directory: true, what: "Claude Code settings: hooks run commands, permissions allow them" },
  { name: /^(\.mcp\.json|opencode\.jsonc?|\.aider\.conf\.ya?ml)$/i, directory: false, what: "an agent's settings: MCP servers it starts, commands it runs after edits" },
  { name: /^(\.cursor|\.gemini|\.codex|\.continue|\.windsurf|\.roo|\.amazonq|\.kiro|\.opencode)$/i, directory: true, what: "an agent's settings: MCP servers, hooks and permissions" },
  { name: /^\.vscode$/i, directory: true, what: "VS Code settings, tasks and launch configurations (run programs)" },
  { name: /\.code-workspace$/i, directory: false, what: "a VS Code workspace: its settings and tasks (runOn: folderOpen) run programs" },
  { name: /^\.idea$/i, directory: true, what: "JetBrains project settings, run configurations and file watchers (run programs)" },
  { name: /^(\.run|.*\.ipr|.*\.iws)$/i, directory: true, what: "JetBrains run configurations and project files (run programs)" },
  { name: /^(\.fleet|\.zed|\.helix)$/i, directory: true, what: "editor settings, tasks and language servers (run programs)" },
  { name: /\.sublime-project$/i, directory: false, what: "a Sublime Text project: its build systems run programs" },
  { name: /^(\.devcontainer|\.devcontainer\.json|\.gitpod\.ya?ml)$/i, directory: true, what: "dev container and workspace definition (postCreateCommand, tasks and friends run programs)" },
  { name: /^(\.husky|\.githooks)$/i, directory: true, what: "git hooks (run on commit, push, checkout)" },
  {
    name: /^(\.pre-commit-config\.ya?ml|\.?lefthook(-local)?\.(ya?ml|toml|jsonc?)|\.lintstagedrc.*|lint-staged\.config\..*|\.huskyrc.*|husky\.config\..*|\.?simple-git-hooks\.(json|c?js|mjs)|\.overcommit\.ya?ml)$/i,
    directory: false,
    what: "commands git hooks run",
  },
  { name: /^\.?lefthook(-local)?\.(ya?ml|toml|jsonc?)$/i, parent: /^\.config$/i, directory: false, what: "commands git hooks run (lefthook)" },
  {
    name: /^(\.npmrc|\.yarnrc|\.yarnrc\.yml|\.pnpmfile\.cjs|\.pnpmfile\.mjs|bunfig\.toml)$/i,
    directory: false,
    what: "package manager settings and hooks (script-shell, node-options, yarnPath, preload run programs)",
  },
  { name: /^(\.pnp\.c?js|\.pnp\.loader\.mjs)$/i, directory: false, what: "Yarn Plug'n'Play's runtime: node loads it for every yarn run" },
  { name: /^(releases|plugins)$/i, parent: /^\.yarn$/i, directory: true, what: "Yarn's own release and plugins: every yarn command runs them" },
  {
    name: /^(\.?mise(\.[^/]+)?(\.local)?\.toml|\.mise|\.tool-versions)$/i,
    directory: true,
    what: "mise/asdf configuration and tasks (hooks run when a shell enters the directory; tool versions can name any program, path:…)",
  },
  { name: /^(mise\.toml|mise)$/i, parent: /^\.config$/i, directory: true, what: "mise configuration (hooks and tasks)" },
  { name: /^config\.toml$/i, parent: /^mise$/i, directory: false, what: "mise configuration (hooks and tasks)" },
  { name: /^(config|config\.toml)$/i, parent: /^\.cargo$/i, directory: false, what: "cargo configuration (runner, rustc-wrapper and aliases run programs)" },
  { name: /^(rust-toolchain|rust-toolchain\.toml)$/i, directory: false, what: "the Rust toolchain every cargo and rustc command runs (a path: toolchain is any program)" },
];
