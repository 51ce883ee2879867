// Redirections as the walk reads them: what each one is (words.ts says which write a file or
// open a connection), and which of its words the shell expands when it sets it up.
import type * as U from "unbash";
import { wordInfo, type ShellRedirect } from "./words.js";

/** A redirection as the gate sees it: its operator, descriptor, target and, for heredocs and here-strings, the static input. */
export function redirection(r: U.Redirection, home: string): ShellRedirect {
  const fd = r.descriptor?.type === "FileDescriptor" ? r.descriptor.value : undefined;
  if (r.type === "HereDoc") {
    const staticBody = r.delimiter?.quoted || !r.body.parts || r.body.parts.every((p) => p.type === "Literal");
    return { operator: r.operator, fd, inputText: staticBody ? r.body.text : undefined };
  }
  const target = r.target ? wordInfo(r.target, home) : undefined;
  if (r.type === "HereString") return { operator: r.operator, fd, target, inputText: target?.value };
  return { operator: r.operator, fd, target };
}

/** The words of a redirection whose expansions run when it is set up: its target, or an unquoted heredoc body. */
export function redirectWords(r: U.Redirection): U.Word[] {
  if (r.type === "HereDoc") {
    if (r.delimiter?.quoted || !r.body.parts) return [];
    return [{ type: "Word", text: r.body.text, value: r.body.text, pos: r.body.pos, end: r.body.end, parts: r.body.parts }];
  }
  return r.target ? [r.target] : [];
}
