// Host methods contributed by the concern modules (tasks, environment, permissions, ...).
import type { HostMethod } from "./hostMethod.js";
import { envHostMethods } from "../env/hostMethods.js";

export const contributedHostMethods: readonly HostMethod[] = [...envHostMethods];
