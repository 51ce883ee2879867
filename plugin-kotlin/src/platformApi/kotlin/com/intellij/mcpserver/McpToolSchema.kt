// Declares (compile-only, never shipped): JetBrains/intellij-community plugins/mcp-server/src/com/intellij/mcpserver/McpToolSchema.kt @ 1b90147d3e2f36e0ef8d5bf7623f809a17beb28b
package com.intellij.mcpserver

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject

class McpToolSchema(
  val propertiesSchema: JsonObject,
  val requiredProperties: Set<String>,
  val definitions: Map<String, JsonElement>,
  val definitionsPath: String = DEFAULT_DEFINITIONS_PATH,
) {
  companion object {
    const val DEFAULT_DEFINITIONS_PATH: String = "definitions"

    fun ofPropertiesSchema(
      properties: JsonObject,
      requiredProperties: Set<String>,
      definitions: Map<String, JsonElement>,
      definitionsPath: String = DEFAULT_DEFINITIONS_PATH,
    ): McpToolSchema = McpToolSchema(properties, requiredProperties, definitions, definitionsPath)
  }
}
