// Why a tool call failed, as one word a host or an agent can branch on: every `isError` result
// carries one in `structuredContent.errorKind` (node-core/PROTOCOL.md, "Error kinds"). The text
// beside it stays the explanation for people and models; the kind is what code decides from.
// Kept in base/ because the layers that find failures (fs/, shell/) and the ones that report them
// (core/, tools/, protocol/) all need the same list.

/** Every kind with its one-line meaning: the single source the type, the docs test and the plugin follow. */
export const TOOL_ERROR_KINDS = {
  // The call itself
  invalid_argument: "an argument breaks the schema or a rule of the tool (nothing ran)",
  denied_by_policy: "a permission rule, the permission mode, or the lack of anyone to ask refused the call (nothing ran)",
  denied_by_user: "the person asked did not allow the call: declined, no answer in time, or the question could not be shown (nothing ran)",
  aborted: "the call was cancelled (by the caller, the host's Stop, the session's end or shutdown) before it finished",
  timeout: "the command ran past its timeout and was stopped with everything it started",
  internal_error: "a bug in wave-core: the tool threw where it should have answered",
  // Files and paths
  not_found: "the file, directory or path does not exist",
  is_directory: "a file was expected but the path is a directory",
  not_a_directory: "a directory was expected but the path is a file",
  not_a_file: "the path is not a regular file (a named pipe, socket or device)",
  invalid_path: "the path cannot name a file: a symbolic-link loop, a file used as a directory, or too long",
  permission_denied: "the operating system refused access (EACCES, EPERM, a read-only file system)",
  outside_workspace: "the path leads outside the project root, where the tool may not go",
  not_read: "the file must be read (`Read`) in this conversation before it is changed",
  stale: "the file changed since it was read, or appeared while it was being written (nothing was changed)",
  path_changed: "the path was swapped (a link or directory replaced) between the permission check and the write; the write was undone",
  no_match: "`Edit`'s `old_string` is not in the file",
  not_unique: "`Edit`'s `old_string` is in the file more than once and `replace_all` is not set",
  too_large: "the file, image or requested window is over the tool's limit",
  binary: "the file is binary or a format the tool does not handle",
  damaged: "the file's content cannot be decoded (a damaged image header, a notebook that is not valid JSON)",
  // Programs the tools run
  sandbox_unavailable: "sandbox mode `on` and no OS sandbox works here, or the call asked to leave the sandbox in that mode (nothing ran)",
  shell_not_found: "no usable bash or zsh (WAVE_SHELL or the system's) was found (nothing ran)",
  dependency_missing: "a program the tool needs (ripgrep for Grep) is not installed",
  spawn_failed: "the shell, ripgrep or an output file could not be started or created",
  out_of_resources: "memory, processes, open files or disk space ran out (ENOMEM, EAGAIN, EMFILE, ENOSPC, SIGXFSZ, ...)",
  syntax_error: "bash cannot parse the command",
  unknown_task: "TaskStop: no background task has that id in this session's tree",
  io_error: "any other operating-system or search failure; the text says which",
  // The command ran: its own outcome, not a failure of the tool
  command_failed: "the command ran and exited with a non-zero code",
  command_not_found: "the command ran and exited 127: bash could not find a program it named",
  not_executable: "the command ran and exited 126: a program it named is not executable",
  command_killed: "the command's shell was killed by a signal",
} as const satisfies Record<string, string>;

export type ToolErrorKind = keyof typeof TOOL_ERROR_KINDS;

export function isToolErrorKind(value: unknown): value is ToolErrorKind {
  return typeof value === "string" && Object.hasOwn(TOOL_ERROR_KINDS, value);
}

/** What the operating system's error code says about a failed file operation. */
export function errorKindOfErrno(code: string | undefined): ToolErrorKind {
  switch (code) {
    case "ENOENT":
      return "not_found";
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return "permission_denied";
    case "EISDIR":
      return "is_directory";
    case "ELOOP":
    case "ENOTDIR":
    case "ENAMETOOLONG":
      return "invalid_path";
    case "ENOSPC":
    case "EDQUOT":
    case "EFBIG":
    case "ENOMEM":
    case "EMFILE":
    case "ENFILE":
    case "EAGAIN":
      return "out_of_resources";
    default:
      return "io_error";
  }
}

/**
 * A program that could not be started: out of resources when its error code (or the code in its
 * message, "spawn bash EAGAIN") says so, otherwise spawn_failed.
 */
export function spawnFailureKind(codeOrMessage: string | undefined): ToolErrorKind {
  const code = codeOrMessage && /\b(E[A-Z0-9]{2,})\b/.exec(codeOrMessage)?.[1];
  return errorKindOfErrno(code || undefined) === "out_of_resources" ? "out_of_resources" : "spawn_failed";
}
