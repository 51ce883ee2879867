/** Where a call came from; decides how progress, permission questions and task notices reach the caller. */
export type CallOrigin = "host" | "mcp" | "cli";
