// Host methods contributed by the concern modules (tasks, environment, permissions, ...).
import { readStateClear } from "../fs/hostMethods.js";
import type { HostMethod } from "./hostMethod.js";

export const contributedHostMethods: readonly HostMethod[] = [readStateClear as HostMethod];
