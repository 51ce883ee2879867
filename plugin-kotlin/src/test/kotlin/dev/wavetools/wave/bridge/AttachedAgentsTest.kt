package dev.wavetools.wave.bridge

import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/**
 * The plugin's side of an attached agent, against the real core listening for agents (as the
 * plugin starts it) and a real `wave-core mcp --attach` agent: its session appears, its approvals
 * come to the host, and the host moves its Bash call to the background and stops its calls.
 */
class AttachedAgentsTest {
    private val core = ListeningCore()
    private val root: Path = core.root
    private val permissions = core.permissions
    private val agents = core.agents
    private val supervisor = core.supervisor
    private val questions = CopyOnWriteArrayList<PermissionQuestion>()
    private val started = CopyOnWriteArrayList<ToolStarted>()
    private val openAgents = mutableListOf<McpAgent>()

    @AfterEach
    fun cleanup() {
        openAgents.forEach { it.close() }
        core.close()
    }

    private fun startCore() {
        permissions.addQuestionListener { questions += it }
        supervisor.addEventListener(object : CoreEvents {
            override fun toolStarted(event: ToolStarted) { started += event }
        })
        supervisor.start()
        TestSupport.eventually(message = { "core state: ${supervisor.state}" }) { supervisor.state is CoreState.Ready }
    }

    private fun agent(): McpAgent = core.agent().also { openAgents += it }

    private fun startedCall(command: String): ToolStarted {
        TestSupport.eventually(message = { "no tool/started for $command: $started" }) { started.any { it.arguments?.get("command")?.asString == command } }
        return started.last { it.arguments?.get("command")?.asString == command }
    }

    private fun question(command: String): PermissionQuestion {
        TestSupport.eventually(message = { "no question about $command" }) { questions.any { it.prompt.command == command && it.isOpen } }
        return questions.last { it.prompt.command == command }
    }

    @Test
    fun `an attached agent appears with its name, counts in the status, and closes when it exits`() {
        startCore()
        val endpoint = (supervisor.state as CoreState.Ready).info.agents
        assertNotNull(endpoint)
        assertTrue(endpoint!!.url.matches(Regex("http://127\\.0\\.0\\.1:\\d+/mcp")), endpoint.url)
        assertEquals(core.stateDir.resolve("ide").resolve("${supervisor.process()!!.pid}.json").toString(), endpoint.lockFile)
        assertEquals(0, agents.status().connected)

        val a = agent()
        TestSupport.eventually(message = { "agents: ${agents.snapshot()}" }) { agents.snapshot().size == 1 }
        val attached = agents.snapshot().single()
        assertEquals(ClientInfo("kotlin-test-agent", "7.8.9"), attached.client)
        assertTrue(attached.connected && attached.sessionId.startsWith("mcp-"))
        assertEquals(1, agents.status().connected)

        a.close()
        TestSupport.eventually(message = { "agents: ${agents.snapshot()}" }) { !agents.snapshot().single().connected }
        assertEquals(0, agents.status().connected)
        assertNotNull(agents.snapshot().single().closeReason)
    }

    @Test
    fun `the agent's approval comes to the host, and the answer decides what runs`() {
        startCore()
        val a = agent()
        TestSupport.eventually(message = { "agents: ${agents.snapshot()}" }) { agents.snapshot().size == 1 }
        val sessionId = agents.snapshot().single().sessionId

        val allowed = a.callTool("Bash", mapOf("command" to "touch from-agent.txt", "dangerouslyDisableSandbox" to true, "description" to "make a file"))
        val q = question("touch from-agent.txt")
        assertEquals(sessionId, q.prompt.sessionId)
        assertTrue(q.prompt.runsOutsideSandbox, "the question says the command runs outside the sandbox")
        assertEquals(startedCall("touch from-agent.txt").callId, q.prompt.callId)
        assertFalse(Files.exists(root.resolve("from-agent.txt")), "nothing runs before the answer")
        assertTrue(q.answer(PermissionAnswer(decision = "allow-once")))
        assertFalse(allowed.get(60, TimeUnit.SECONDS).get("isError").asBoolean)
        assertTrue(Files.exists(root.resolve("from-agent.txt")))

        val denied = a.callTool("Bash", mapOf("command" to "touch denied.txt", "dangerouslyDisableSandbox" to true))
        question("touch denied.txt").answer(PermissionAnswer(decision = "deny", message = "not now"))
        val result = denied.get(60, TimeUnit.SECONDS)
        assertTrue(result.get("isError").asBoolean)
        assertTrue(result.getAsJsonArray("content")[0].asJsonObject.get("text").asString.contains("The user said: not now."))
        assertFalse(Files.exists(root.resolve("denied.txt")))
    }

    @Test
    fun `Move to Background answers the agent's Bash call with backgroundedByUser, and Stop ends a call with no process left`() {
        startCore()
        val a = agent()
        val marker = supervisor.process()!!.launch.instanceMarker

        // Outside the sandbox, so the command needs the person's approval whatever the gate thinks of it.
        val long = a.callTool("Bash", mapOf("command" to "touch long.txt; sleep 300", "dangerouslyDisableSandbox" to true))
        question("touch long.txt; sleep 300").answer(PermissionAnswer(decision = "allow-once"))
        val call = startedCall("touch long.txt; sleep 300")
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(marker)}" }) { TestSupport.commandProcesses(marker).isNotEmpty() }
        val moved = supervisor.requireApi().moveToBackground(call.callId).get(30, TimeUnit.SECONDS)
        assertTrue(moved.moved, moved.reason)
        val result = long.get(30, TimeUnit.SECONDS).getAsJsonObject("structuredContent")
        assertTrue(result.get("backgroundedByUser").asBoolean, result.toString())
        assertEquals(moved.taskId, result.get("backgroundTaskId").asString)
        supervisor.requireApi().tasksStop(moved.taskId!!).get(30, TimeUnit.SECONDS)
        assertEquals(emptyMap<Long, String>(), TestSupport.commandProcesses(marker))

        val stopped = a.callTool("Bash", mapOf("command" to "touch stop.txt; sleep 301", "dangerouslyDisableSandbox" to true))
        question("touch stop.txt; sleep 301").answer(PermissionAnswer(decision = "allow-once"))
        val second = startedCall("touch stop.txt; sleep 301")
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(marker)}" }) { TestSupport.commandProcesses(marker).isNotEmpty() }
        supervisor.requireApi().cancelCall(second.callId)
        val interrupted = stopped.get(30, TimeUnit.SECONDS).getAsJsonObject("structuredContent")
        assertTrue(interrupted.get("interrupted").asBoolean, interrupted.toString())
        assertEquals(emptyMap<Long, String>(), TestSupport.commandProcesses(marker))
    }
}
