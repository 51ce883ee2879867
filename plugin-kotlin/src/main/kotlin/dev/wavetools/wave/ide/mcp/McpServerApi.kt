package dev.wavetools.wave.ide.mcp

import com.intellij.mcpserver.ClientInfo
import com.intellij.mcpserver.McpCallAdditionalDataElement
import com.intellij.mcpserver.McpToolCallResult
import com.intellij.mcpserver.McpToolCallResultContent
import com.intellij.mcpserver.McpToolDescriptor
import com.intellij.mcpserver.McpToolSchema
import com.intellij.openapi.project.Project
import kotlinx.serialization.json.JsonObject
import java.lang.reflect.Constructor
import kotlin.coroutines.CoroutineContext

/** Who calls, through the IDE's MCP server, and for which project (null: the server did not say). */
data class McpCaller(
    val client: dev.wavetools.wave.bridge.ClientInfo,
    /** The client's connection (`mcp-session-id`), where the IDE's server reports its headers; else null. */
    val connectionId: String?,
    val project: Project?,
)

/** The IDE's MCP server exists but its API is not one Wave Tools was checked against. */
class UnsupportedMcpServerException(message: String) : Exception(message)

/**
 * Every use of the IDE's MCP server API (plugin `com.intellij.mcpServer`, sources in
 * JetBrains/intellij-community plugins/mcp-server/src/com/intellij/mcpserver/). The API changes
 * between IDE versions; these commits were read:
 *
 * - 583d7f873b8cdb5ae92d5650633264813b715c19 — the version the index lists (taken for 2025.2's; plugin.xml with
 *   the `mcpToolsProvider` EP, dynamic): `McpToolDescriptor(name, description, inputSchema, outputSchema?)`.
 * - 0d756ce25492936f431ce64650c9fff6046a34f0 — `McpToolDescriptor(name, title?, description,
 *   displayDescription?, category: McpToolCategory, fullyQualifiedName, inputSchema, outputSchema?, annotations?)`;
 *   `McpToolCategory(shortName, fullyQualifiedName, isExperimental, alwaysIncluded, displayName?,
 *   displayDescription?)` at 0bec7b96181747b0611996d21f5803bb868ac557.
 * - McpToolsProvider.kt @ 05fc59300692e9b84414edb53858ea3e5705fc7d (`getTools()`), McpTool.kt @
 *   0053b49b82faae08a69b422e22216d9613cce025 (`McpToolCallResult(content, structuredContent?, isError)`,
 *   `McpToolCallResultContent.Text`), McpToolSchema.kt @ 1b90147d3e2f36e0ef8d5bf7623f809a17beb28b.
 * - Who calls: McpCallAdditionalData.kt @ 47eeac6d41e6a1bd2c11ebdd61741f003027c53b (class
 *   `McpCallAdditionalData`) and McpCallInfo.kt @ 026915342927f0aa3ebcf478bd2760f82dd23246 (renamed
 *   `McpCallInfo`, adds `headers`); both put a `McpCallAdditionalDataElement` in the call's
 *   coroutine context whose `additionalData` has `clientInfo` and `project`. ToolCallListener.kt @
 *   0609d0b516e3f30b430a9c34ff2cde4378c563e0 reports calls, never a client's disconnect.
 * - An older API the index also holds (its commits could not be dated against 2025.2): McpToolInputSchema.kt @
 *   05fc59300692e9b84414edb53858ea3e5705fc7d instead of McpToolSchema, `McpToolCallResult(content, isError)` without
 *   structuredContent, and ClientInfo.kt @ d6979453405a7aac496b16569d88326571fb7483 (a ClientInfoElement, no
 *   McpCallAdditionalDataElement). There McpToolSchema is missing, so [WaveMcpTools.tools] catches the LinkageError
 *   and offers no tools; McpCallAdditionalData.kt @ f29b1548c349b70de0cabc2934db67f75ecd76d2 (no `callId`) is read
 *   like 47eeac6d.
 *
 * Members whose JVM signature differs between those versions are reached by reflection, so one build
 * runs on all of them; anything else throws [UnsupportedMcpServerException], and Wave Tools then
 * offers no tools there (and says why in the log) instead of failing inside the IDE's server.
 */
object McpServerApi {
    private const val CATEGORY_CLASS = "com.intellij.mcpserver.McpToolCategory"

    private val descriptorFactory: (String, String, McpToolSchema) -> McpToolDescriptor by lazy { descriptorFactory() }

    fun schema(properties: JsonObject, required: Set<String>): McpToolSchema =
        McpToolSchema.ofPropertiesSchema(properties, required, emptyMap(), McpToolSchema.DEFAULT_DEFINITIONS_PATH)

    fun descriptor(name: String, description: String, inputSchema: McpToolSchema): McpToolDescriptor = descriptorFactory(name, description, inputSchema)

    fun textResult(texts: List<String>, structured: JsonObject?, isError: Boolean): McpToolCallResult =
        McpToolCallResult(texts.map { McpToolCallResultContent.Text(it) }.toTypedArray<McpToolCallResultContent>(), structured, isError)

    /** The caller of the MCP call whose coroutine context this is; null outside one. */
    fun caller(context: CoroutineContext): McpCaller? {
        val element = context[McpCallAdditionalDataElement.Key] ?: return null
        // McpCallAdditionalData (47eeac6d) or McpCallInfo (02691534): the getter's return type differs.
        val data = element.javaClass.getMethod("getAdditionalData").invoke(element) ?: return null
        val client = data.javaClass.getMethod("getClientInfo").invoke(data) as ClientInfo
        val project = data.javaClass.getMethod("getProject").invoke(data) as Project?
        val headers = data.javaClass.methods.firstOrNull { it.name == "getHeaders" && it.parameterCount == 0 }?.invoke(data) as? Map<*, *>
        val connection = headers?.entries?.firstOrNull { (it.key as? String).equals("mcp-session-id", ignoreCase = true) }?.value
            ?.let { v -> (v as? List<*>)?.firstOrNull()?.toString() ?: v.toString() }
        return McpCaller(dev.wavetools.wave.bridge.ClientInfo(client.name, client.version.takeIf { it.isNotBlank() }), connection, project)
    }

    private fun descriptorFactory(): (String, String, McpToolSchema) -> McpToolDescriptor {
        val ctors = McpToolDescriptor::class.java.constructors
        val s = String::class.java
        val schema = McpToolSchema::class.java
        fun Constructor<*>.types(): List<Class<*>> = parameterTypes.toList()
        // 583d7f87: (name, description, inputSchema, outputSchema?)
        ctors.firstOrNull { it.types() == listOf(s, s, schema, schema) }?.let { c ->
            return { name, description, input -> c.newInstance(name, description, input, null) as McpToolDescriptor }
        }
        // 0d756ce2: (name, title?, description, displayDescription?, category, fullyQualifiedName, inputSchema, outputSchema?, annotations?)
        ctors.firstOrNull { c ->
            val t = c.types()
            t.size == 9 && t.subList(0, 4) == listOf(s, s, s, s) && t[4].name == CATEGORY_CLASS && t[5] == s && t[6] == schema && t[7] == schema
        }?.let { c ->
            val category = category(c.parameterTypes[4])
            return { name, description, input -> c.newInstance(name, null, description, null, category, "$FQN_PREFIX.$name", input, null, null) as McpToolDescriptor }
        }
        throw UnsupportedMcpServerException("McpToolDescriptor has none of the constructors Wave Tools was checked against: ${ctors.joinToString { c -> c.types().joinToString(prefix = "(", postfix = ")") { it.simpleName } }}")
    }

    /** 0bec7b96: McpToolCategory(shortName, fullyQualifiedName, isExperimental, alwaysIncluded, displayName?, displayDescription?). */
    private fun category(type: Class<*>): Any {
        val s = String::class.java
        val b = java.lang.Boolean.TYPE
        val c = type.constructors.firstOrNull { it.parameterTypes.toList() == listOf(s, s, b, b, s, s) }
            ?: throw UnsupportedMcpServerException("McpToolCategory has none of the constructors Wave Tools was checked against")
        return c.newInstance(CATEGORY_SHORT_NAME, FQN_PREFIX, false, false, "Wave Tools", "The project's Wave Tools core: Bash with background tasks, Read, Edit, Write, Glob, Grep")
    }

    /** What the IDE's tool list and filter settings group Wave's tools under. */
    const val CATEGORY_SHORT_NAME = "WaveToolsToolset"
    private const val FQN_PREFIX = "dev.wavetools.wave.ide.mcp.WaveMcpTools"
}
