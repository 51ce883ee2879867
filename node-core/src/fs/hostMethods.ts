// Host methods of the file tools (see PROTOCOL.md).
import { z } from "zod";
import { defineHostMethod } from "../protocol/hostMethod.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { fileKey, resolveToolPath } from "./paths.js";
import { READ_STATE } from "./readState.js";

/**
 * Forgets what a session has read, e.g. after the host compacted the conversation: the model no
 * longer has those Read results, so Edit/Write must ask for a fresh Read and Read must not answer
 * "unchanged".
 */
export const readStateClear = defineHostMethod({
  name: "fs/clearReadState",
  params: z.object({
    sessionId: z.string().min(1).optional(),
    paths: z.array(z.string().min(1)).optional(),
  }),
  handle: (p, { core }) => {
    const session = core.sessions.get(p.sessionId);
    if (!session) throw new RpcError(ErrorCode.InvalidParams, `Unknown session "${p.sessionId}".`);
    const state = session.service(READ_STATE);
    const cleared = state.clear(p.paths?.map((f) => fileKey(resolveToolPath(f, session.cwd))));
    return { cleared };
  },
});
