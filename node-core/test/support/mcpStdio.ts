// The MCP SDK's stdio transport for tests. Without `env` the SDK passes a server only HOME, LOGNAME,
// PATH, SHELL, TERM and USER: the test's WAVE_LOGIN_ENV=0 (vitest.config.mts) would be lost and the
// core would run the developer's own login profile. Every test starts its MCP servers through here
// (test/harness.test.ts checks that none calls the SDK's constructor directly).
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";

export function stdioTransport(params: StdioServerParameters): StdioClientTransport {
  return new StdioClientTransport({ ...params, env: { ...(process.env as Record<string, string>), ...params.env } });
}
