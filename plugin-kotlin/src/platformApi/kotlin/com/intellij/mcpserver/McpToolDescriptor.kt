// Declares (compile-only, never shipped): JetBrains/intellij-community plugins/mcp-server/src/com/intellij/mcpserver/McpToolDescriptor.kt @ 583d7f873b8cdb5ae92d5650633264813b715c19
package com.intellij.mcpserver

// The version the index lists (taken for 2025.2's; an older API with McpToolInputSchema is stored too,
// see ide/mcp/McpServerApi.kt). Newer versions (e.g. 0d756ce25492936f431ce64650c9fff6046a34f0)
// have another constructor; ide/mcp/McpServerApi.kt builds descriptors through whichever is there.
class McpToolDescriptor(
  val name: String,
  val description: String,
  val inputSchema: McpToolSchema,
  val outputSchema: McpToolSchema? = null,
)
