// Host methods contributed by the concern modules (tasks, environment, permissions, ...).
import type { HostMethod } from "./hostMethod.js";
import { taskHostMethods } from "../tasks/hostMethods.js";

export const contributedHostMethods: readonly HostMethod[] = [...(taskHostMethods as readonly HostMethod[])];
