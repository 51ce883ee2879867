// Asking over the host protocol: the core sends the host a `permission/request` and waits for the
// person's answer (PROTOCOL.md). Cancelling the call cancels the request (`$/cancelRequest`).
import { ErrorCode, RpcError, type JsonRpcPeer } from "../jsonrpc.js";
import { AskTimeout, InvalidAnswer, permissionAnswerSchema, type PermissionAsker } from "../../permissions/types.js";

export function hostAsker(peer: JsonRpcPeer): PermissionAsker {
  return async (prompt, { signal, timeoutMs }) => {
    let raw: unknown;
    try {
      raw = await peer.request("permission/request", prompt, { signal, timeoutMs });
    } catch (err) {
      // The peer has already sent `$/cancelRequest`, so the host takes the question down.
      if (err instanceof RpcError && err.code === ErrorCode.RequestTimeout) throw new AskTimeout(timeoutMs);
      throw err;
    }
    const parsed = permissionAnswerSchema.safeParse(raw);
    if (!parsed.success) {
      throw new InvalidAnswer(`the host answered permission/request with ${JSON.stringify(raw)?.slice(0, 200)}; expected {decision: "allow-once" | "always-allow" | "deny", rules?, message?}`);
    }
    return parsed.data;
  };
}
