// Every request method of the host protocol besides initialize and shutdown (see PROTOCOL.md),
// one file per concern: each maps the concern's typed service onto params, results and RPC errors.
import type { HostMethod } from "../hostMethod.js";
import { coreMethods } from "./core.js";
import { envHostMethods } from "./env.js";
import { readStateClear } from "./fs.js";
import { permissionHostMethods } from "./permissions.js";
import { taskHostMethods } from "./tasks.js";

export { checkRoot } from "./core.js";

export const hostMethods: readonly HostMethod[] = [
  ...(coreMethods as readonly HostMethod[]),
  ...(taskHostMethods as readonly HostMethod[]),
  ...(envHostMethods as readonly HostMethod[]),
  ...permissionHostMethods,
  readStateClear as HostMethod,
];
