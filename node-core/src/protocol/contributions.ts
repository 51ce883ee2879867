// Host methods contributed by the concern modules (tasks, environment, permissions, ...).
import type { HostMethod } from "./hostMethod.js";

export const contributedHostMethods: readonly HostMethod[] = [];
