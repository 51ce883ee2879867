// Declares (compile-only, never shipped): JetBrains/intellij-community plugins/mcp-server/src/com/intellij/mcpserver/McpCallAdditionalData.kt @ 47eeac6d41e6a1bd2c11ebdd61741f003027c53b
package com.intellij.mcpserver

import com.intellij.openapi.project.Project
import kotlinx.serialization.json.JsonObject
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext

// Value holders as in the source (the tests put one in the coroutine context, as the server does).
// Later versions rename the class McpCallInfo (McpCallInfo.kt @ 026915342927f0aa3ebcf478bd2760f82dd23246)
// and keep McpCallAdditionalDataElement and ClientInfo; ide/mcp/McpServerApi.kt reads both.
class McpCallAdditionalData(
  val callId: Int,
  val clientInfo: ClientInfo,
  val project: Project?,
  val mcpToolDescriptor: McpToolDescriptor,
  val rawArguments: JsonObject,
  val meta: JsonObject,
)

class ClientInfo(val name: String, val version: String)

class McpCallAdditionalDataElement(val additionalData: McpCallAdditionalData) : AbstractCoroutineContextElement(Key) {
  companion object Key : CoroutineContext.Key<McpCallAdditionalDataElement>
}
