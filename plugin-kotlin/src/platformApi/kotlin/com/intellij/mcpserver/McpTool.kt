// Declares (compile-only, never shipped): JetBrains/intellij-community plugins/mcp-server/src/com/intellij/mcpserver/McpTool.kt @ 0053b49b82faae08a69b422e22216d9613cce025
package com.intellij.mcpserver

import kotlinx.serialization.json.JsonObject

// Working bodies (plain value holders): the tests read the results ide/ builds.
interface McpTool {
  val descriptor: McpToolDescriptor
  suspend fun call(args: JsonObject): McpToolCallResult
}

sealed interface McpToolCallResultContent {
  class Text(val text: String) : McpToolCallResultContent
}

class McpToolCallResult(val content: Array<McpToolCallResultContent>, val structuredContent: JsonObject? = null, val isError: Boolean = false)
