// Host methods contributed by the concern modules (tasks, environment, permissions, ...).
import type { HostMethod } from "./hostMethod.js";
import { envHostMethods } from "../env/hostMethods.js";
import { readStateClear } from "../fs/hostMethods.js";
import { permissionHostMethods } from "../permissions/hostMethods.js";
import { taskHostMethods } from "../tasks/hostMethods.js";

export const contributedHostMethods: readonly HostMethod[] = [
  ...(taskHostMethods as readonly HostMethod[]),
  ...envHostMethods,
  ...permissionHostMethods,
  readStateClear as HostMethod,
];
