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

/** A request method of the host protocol (see PROTOCOL.md). Concern modules contribute their own. */
export interface HostMethod<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly params: S;
  handle(params: z.output<S>, ctx: HostCallContext): Promise<unknown> | unknown;
}

export function defineHostMethod<S extends z.ZodType>(method: HostMethod<S>): HostMethod<S> {
  return method;
}
