import type { z } from "zod";
import type { WaveCore } from "../core/runtime.js";
import type { JsonRpcId } from "./jsonrpc.js";
import type { PermissionAsker } from "../permissions/types.js";

export interface HostCallContext {
  core: WaveCore;
  signal: AbortSignal;
  requestId: JsonRpcId;
  /** Present when the host declared `capabilities.permissionRequests` in initialize. */
  asker?: PermissionAsker;
}

/**
 * A request method of the host protocol (see PROTOCOL.md). Concern modules contribute their own.
 * `params` validates what the host sends; `result` is the shape of the answer (protocol/wire.ts):
 * the handler's return type must fit it, the tests check every real answer against it, and both
 * go into the published JSON Schema (test-fixtures/protocol/schema.json).
 */
export interface HostMethod<S extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly params: S;
  readonly result: R;
  handle(params: z.output<S>, ctx: HostCallContext): Promise<z.input<R>> | z.input<R>;
}

export function defineHostMethod<S extends z.ZodType, R extends z.ZodType>(method: HostMethod<S, R>): HostMethod<S, R> {
  return method;
}
