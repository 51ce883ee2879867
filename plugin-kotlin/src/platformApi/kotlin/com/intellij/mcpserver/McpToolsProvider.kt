// Declares (compile-only, never shipped): JetBrains/intellij-community plugins/mcp-server/src/com/intellij/mcpserver/McpToolsProvider.kt @ 05fc59300692e9b84414edb53858ea3e5705fc7d
package com.intellij.mcpserver

interface McpToolsProvider {
  fun getTools(): List<McpTool>
}
