// Host methods of the file tools (see PROTOCOL.md).
import { z } from "zod";

import { defineHostMethod } from "../hostMethod.js";
import { ErrorCode, RpcError } from "../jsonrpc.js";
import { clearReadState } from "../../fs/readState.js";

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
  result: z.strictObject({ cleared: z.number().int() }),
  handle: (p, { core }) => {
    const session = core.sessions.get(p.sessionId);
    if (!session) throw new RpcError(ErrorCode.InvalidParams, `Unknown session "${p.sessionId}".`);
    return { cleared: clearReadState(session, p.paths) };
  },
});
