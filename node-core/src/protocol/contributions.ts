// Host methods contributed by the concern modules (tasks, environment, permissions, ...).
import type { HostMethod } from "./hostMethod.js";
import { permissionHostMethods } from "../permissions/hostMethods.js";

export const contributedHostMethods: readonly HostMethod[] = [...permissionHostMethods];
