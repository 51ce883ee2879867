// Host methods of the login-environment concern (PROTOCOL.md `env/status`).
import { z } from "zod";
import { defineHostMethod } from "../hostMethod.js";
import { loginEnvironmentStatus } from "../../env/index.js";

const envStatus = defineHostMethod({
  name: "env/status",
  params: z.object({}).passthrough(),
  handle: () => loginEnvironmentStatus(),
});

export const envHostMethods = [envStatus];
