// Workspace files that run code or grant permissions later (README "Sensitive workspace files"):
// the permission gate asks before writing one (permissions/sensitive.ts), and the OS sandbox keeps
// the same ones read-only inside writable directories (shell/sandbox/policy.ts). One list for both.

export interface SensitiveEntry {
  /** A path segment pattern, matched at any depth below an allowed directory. */
  readonly name: RegExp;
  /** A directory: everything below it counts. */
  readonly directory: boolean;
  /** What it does, for messages and the README. */
  readonly what: string;
}

/**
 * Workspace files that run code or grant permissions later (README "Sensitive workspace files").
 * Names match without regard to case: on macOS and Windows `.GIT/config` is `.git/config`.
 */
export const SENSITIVE_WORKSPACE: readonly SensitiveEntry[] = [
  { name: /^\.git$/i, directory: true, what: "git's configuration, hooks and repository link (core.fsmonitor, hooks, gitdir: run programs on the next git command)" },
  { name: /^\.gitmodules$/i, directory: false, what: "git submodule definitions (what git clones and checks out)" },
  { name: /^\.envrc$/i, directory: false, what: "direnv runs it when a shell enters the directory" },
  { name: /^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zshenv|\.zprofile|\.zlogin|\.zlogout|\.gitconfig)$/i, directory: false, what: "a shell or git start-up file (read when this directory is HOME or ZDOTDIR)" },
  { name: /^(\.exrc|\.nvimrc|\.nvim\.lua)$/i, directory: false, what: "vim/neovim run it when they open files here (exrc)" },
  { name: /^\.claude$/i, directory: true, what: "Claude Code settings: hooks run commands, permissions allow them" },
  { name: /^\.mcp\.json$/i, directory: false, what: "MCP servers an agent starts (each is a command)" },
  { name: /^(\.cursor|\.gemini|\.codex|\.continue|\.windsurf|\.roo|\.amazonq)$/i, directory: true, what: "an agent's settings: MCP servers, hooks and permissions" },
  { name: /^\.vscode$/i, directory: true, what: "VS Code settings, tasks and launch configurations (run programs)" },
  { name: /^\.idea$/i, directory: true, what: "JetBrains project settings, run configurations and file watchers (run programs)" },
  { name: /^(\.fleet|\.zed)$/i, directory: true, what: "editor settings and tasks (run programs)" },
  { name: /^\.devcontainer$/i, directory: true, what: "dev container definition (postCreateCommand and friends run programs)" },
  { name: /^(\.husky|\.githooks)$/i, directory: true, what: "git hooks (run on commit, push, checkout)" },
  { name: /^(\.pre-commit-config\.ya?ml|\.?lefthook(-local)?\.ya?ml|\.lintstagedrc.*|lint-staged\.config\..*)$/i, directory: false, what: "commands git hooks run" },
  { name: /^(\.npmrc|\.yarnrc|\.yarnrc\.yml|\.pnpmfile\.cjs|\.pnpmfile\.mjs|bunfig\.toml)$/i, directory: false, what: "package manager settings and hooks (script-shell, node-options, yarnPath, preload run programs)" },
  { name: /^(\.?mise\.toml|\.mise)$/i, directory: false, what: "mise tasks and hooks (run when a shell enters the directory)" },
];

