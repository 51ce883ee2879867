package dev.wavetools.wave.ide.mcp

import com.intellij.mcpserver.ClientInfo
import com.intellij.mcpserver.McpCallAdditionalData
import com.intellij.mcpserver.McpCallAdditionalDataElement
import com.intellij.mcpserver.McpTool
import com.intellij.mcpserver.McpToolCallResult
import com.intellij.mcpserver.McpToolCallResultContent
import com.intellij.openapi.project.Project
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.bridge.WaveCoreApi
import dev.wavetools.wave.ui.AgentTab
import dev.wavetools.wave.ui.AgentWindow
import dev.wavetools.wave.ui.BashCard
import dev.wavetools.wave.ui.onEdt
import dev.wavetools.wave.ui.startAndAwaitReady
import dev.wavetools.wave.ui.waitForUi
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.time.ZoneOffset
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import javax.swing.SwingUtilities

/**
 * Wave's tools in the IDE's MCP server, end to end: the provider's tools and calls (against the
 * transcribed mcp-server declarations, with the call context the server puts in each call's
 * coroutine), the real bundled core as the plugin starts it, and the tool window's controller whose
 * tabs show each client's session.
 */
class WaveMcpToolsTest {
    private val window = AgentWindow()
    private val supervisor = window.supervisor
    private val controller = window.controller
    private val root = window.core.root

    /** A clock the expiry test moves forward. */
    private var now = Instant.parse("2026-12-04T10:00:00Z")
    private val clock = object : Clock() {
        override fun getZone() = ZoneOffset.UTC
        override fun withZone(zone: java.time.ZoneId?) = this
        override fun instant() = now
    }

    private val cores = object : ProjectCores {
        override fun supervisor(project: Project?) = CoreLookup.Found(supervisor, "test")
        override fun readyApis(): List<WaveCoreApi> = listOfNotNull(supervisor.api())
        override fun startAll() = supervisor.startAsync()
    }
    private val tools = WaveMcpTools(cores, RecordingLog(), TestSupport.scheduler, isUiThread = { SwingUtilities.isEventDispatchThread() }, clock = clock)

    @AfterEach
    fun cleanup() {
        tools.close()
        window.close()
    }

    private fun tool(name: String): McpTool = tools.tools().single { it.descriptor.name == name }

    /** A call as the IDE's server makes it: the caller in the coroutine context. */
    private fun call(client: String, tool: McpTool, vararg args: Pair<String, Any>): McpToolCallResult {
        val json = JsonObject(args.associate { (k, v) -> k to if (v is Boolean) JsonPrimitive(v) else JsonPrimitive(v.toString()) })
        val data = McpCallAdditionalData(1, ClientInfo(client, "1.0.0"), null, tool.descriptor, json, JsonObject(emptyMap()))
        return runBlocking(McpCallAdditionalDataElement(data)) { tool.call(json) }
    }

    private fun callAsync(client: String, tool: McpTool, vararg args: Pair<String, Any>): CompletableFuture<McpToolCallResult> =
        CompletableFuture.supplyAsync { call(client, tool, *args) }

    private fun McpToolCallResult.text(): String = content.joinToString("\n") { (it as McpToolCallResultContent.Text).text }

    private fun tabOf(client: String): AgentTab {
        waitForUi({ "tabs: ${controller.panel.sessions.agents().map { it.title }}" }) { controller.panel.sessions.agents().any { it.title == client } }
        return onEdt { controller.panel.sessions.agents().single { it.title == client } }
    }

    private fun bashCardIn(tab: AgentTab, command: String): BashCard {
        waitForUi({ "cards in ${tab.title}'s tab: ${tab.feed.cards().map { it.started.arguments }}" }) {
            tab.feed.cards().any { it.started.arguments?.get("command")?.asString == command }
        }
        return onEdt { tab.feed.cards().last { it.started.arguments?.get("command")?.asString == command } as BashCard }
    }

    private fun allowOnce(tab: AgentTab, command: String) {
        waitForUi({ "no open approval for $command in ${tab.title}'s tab" }) { tab.feed.approvals().any { it.model.subject == command && it.model.isOpen } }
        onEdt { tab.feed.approvals().last { it.model.subject == command }.allowOnceButton.doClick() }
    }

    @Test
    fun `getTools publishes the core's own tool list - prefixed names, the same descriptions and input schemas`() {
        controller.startAndAwaitReady(supervisor)
        val coreTools = supervisor.requireApi().toolsList().get(30, TimeUnit.SECONDS)
        val published = tools.tools()
        assertEquals(coreTools.map { "wave_${it.name}" }, published.map { it.descriptor.name })
        for ((core, mcp) in coreTools.zip(published)) {
            assertEquals(core.description, mcp.descriptor.description, core.name)
            val schema = core.inputSchema!!
            assertEquals(schema.getAsJsonObject("properties"), McpJson.toGson(mcp.descriptor.inputSchema.propertiesSchema), core.name)
            assertEquals(schema.getAsJsonArray("required")?.map { it.asString }?.toSet() ?: emptySet<String>(), mcp.descriptor.inputSchema.requiredProperties, core.name)
            // Nothing of the core's schema is dropped: McpToolSchema carries properties and required and adds additionalProperties: false.
            assertTrue((schema.keySet() - setOf("type", "properties", "required", "additionalProperties", "\$schema")).isEmpty(), schema.keySet().toString())
            assertFalse(schema.get("additionalProperties")?.asBoolean ?: false, "the core's schemas allow no other properties either")
        }
        assertTrue(published.map { it.descriptor.name }.containsAll(listOf("wave_Bash", "wave_Read", "wave_Edit", "wave_TaskStop")))
    }

    @Test
    fun `a call runs in the client's own session, shows in a tab named after the client, and keeps the core's text and structured content`() {
        controller.startAndAwaitReady(supervisor)
        val result = call("claude-code", tool("wave_Read"), "file_path" to "notes.txt")
        assertFalse(result.isError, result.text())
        assertTrue(result.text().contains("hello from the workspace"), result.text())
        assertEquals(JsonPrimitive(root.resolve("notes.txt").toString()), result.structuredContent!!["filePath"])

        val tab = tabOf("claude-code")
        waitForUi({ "the Read card" }) { tab.feed.cards().any { it.started.name == "Read" && !it.isRunning } }
        onEdt {
            assertTrue(tab.connected)
            assertTrue(controller.panel.feed.cards().isEmpty(), "the project's own feed stays empty")
        }
    }

    @Test
    fun `an approval is asked in the client's tab with Wave's gate, and Allow Once runs the command`() {
        controller.startAndAwaitReady(supervisor)
        val pending = callAsync("codex", tool("wave_Bash"), "command" to "printf ok > approved.txt", "dangerouslyDisableSandbox" to true)
        val tab = tabOf("codex")
        bashCardIn(tab, "printf ok > approved.txt")
        assertFalse(Files.exists(root.resolve("approved.txt")), "nothing runs before the answer")
        // Not held back unseen: the project's own tab shows, so the client's tab counts the question ...
        waitForUi({ "tab title: ${controller.panel.sessions.strip.tab(tab.sessionId)?.title}" }) {
            controller.panel.sessions.strip.tab(tab.sessionId)?.title == "codex (1 waiting)"
        }
        onEdt {
            assertTrue(controller.panel.sessions.strip.tab(tab.sessionId)!!.badge.isVisible, "the tab carries the warning badge")
            assertFalse(dev.wavetools.wave.ide.ApprovalVisibility.cardShown(tab.sessionId, controller), "the card is in a tab that does not show")
            controller.panel.sessions.select(tab.sessionId)
            assertTrue(dev.wavetools.wave.ide.ApprovalVisibility.cardShown(tab.sessionId, controller))
        }
        allowOnce(tab, "printf ok > approved.txt")
        val result = pending.get(60, TimeUnit.SECONDS)
        assertFalse(result.isError, result.text())
        assertEquals("ok", Files.readString(root.resolve("approved.txt")))
        // ... and once answered the count goes.
        waitForUi({ "tab title: ${controller.panel.sessions.strip.tab(tab.sessionId)?.title}" }) { controller.panel.sessions.strip.tab(tab.sessionId)?.title == "codex" }
        onEdt { assertTrue(controller.panel.feed.approvals().isEmpty(), "asked in the client's tab, not the project's") }
    }

    @Test
    fun `Move to Background in the client's tab answers its call with the task id, and the session's end stops the task`() {
        controller.startAndAwaitReady(supervisor)
        val marker = supervisor.process()!!.launch.instanceMarker
        val command = "touch long.txt; sleep 300"
        val pending = callAsync("cursor", tool("wave_Bash"), "command" to command, "dangerouslyDisableSandbox" to true)
        val tab = tabOf("cursor")
        allowOnce(tab, command)
        val card = bashCardIn(tab, command)
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(marker)}" }) { TestSupport.commandProcesses(marker).isNotEmpty() }
        waitForUi({ "Move to Background is not offered" }) { card.moveAction.isEnabled }
        onEdt { card.requestMove() }
        val result = pending.get(30, TimeUnit.SECONDS)
        assertFalse(result.isError, result.text())
        val taskId = (result.structuredContent!!["backgroundTaskId"] as JsonPrimitive).content
        assertEquals("true", (result.structuredContent!!["backgroundedByUser"] as JsonPrimitive).content)
        waitForUi({ "the task is not listed" }) { controller.panel.tasks.row(taskId) != null }

        // The client stops calling: past the idle time with its task still running its session stays ...
        now = now.plus(tools.idleAfter).plusSeconds(1)
        tools.expireIdle()
        onEdt { assertTrue(tab.connected, "a running task keeps the session") }
        // ... and past the longer one it ends, and its task with it: no process is left.
        now = now.plus(tools.idleWithTasksAfter)
        tools.expireIdle()
        waitForUi({ "the tab still says connected" }) { !tab.connected }
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(marker)}" }) { TestSupport.commandProcesses(marker).isEmpty() }
        onEdt { assertTrue(tab.closedBanner.plainText.contains("does not report when a client disconnects"), tab.closedBanner.plainText) }

        // The same client calling again gets a fresh session (and tab).
        assertFalse(call("cursor", tool("wave_Read"), "file_path" to "notes.txt").isError)
    }

    @Test
    fun `two clients get two sessions - each its own working directory`() {
        controller.startAndAwaitReady(supervisor)
        val bash = tool("wave_Bash")
        // Read-only commands: the gate lets them run without a question.
        assertEquals("$root/src", call("claude-code", bash, "command" to "cd src && pwd").text().lines().first().trim())
        assertEquals(root.toString(), call("gemini-cli", bash, "command" to "pwd").text().lines().first().trim())
        assertEquals("$root/src", call("claude-code", bash, "command" to "pwd").text().lines().first().trim(), "the first client's session kept its directory")
        tabOf("claude-code")
        tabOf("gemini-cli")
        onEdt { assertEquals(2, controller.panel.sessions.agents().size) }
    }

    @Test
    fun `outside a call of the IDE's server a tool answers with an error instead of running`() {
        controller.startAndAwaitReady(supervisor)
        val result = runBlocking { tool("wave_Read").call(JsonObject(mapOf("file_path" to JsonPrimitive("notes.txt")))) }
        assertTrue(result.isError)
        assertTrue(result.text().contains("only inside a call of the IDE's MCP server"), result.text())
        assertNotNull(result)
    }
}
