package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.AgentConnect
import dev.wavetools.wave.bridge.AgentKind
import dev.wavetools.wave.bridge.AttachCommand
import dev.wavetools.wave.bridge.OsFamily
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/** The Connect an Agent panel: per agent the exact configuration, Copy, and Apply through the host. */
class ConnectAgentPanelTest {
    private val home: Path = Files.createTempDirectory("wave-connect-home-").toRealPath()
    private val attach = AttachCommand("/opt/node/bin/node", "/opt/idea/plugins/wave-tools/core/wave-core.js")
    private val copied = mutableListOf<String>()

    /** A host that applies at once what the panel asks (the IDE shows diffs first). */
    private fun host(connect: AgentConnect) = object : ConnectHost {
        override fun copy(text: String) { copied += text }
        override fun apply(kind: AgentKind, turnOffOwnTools: Boolean, done: (ApplyOutcome) -> Unit) {
            done(
                try {
                    connect.apply(connect.plan(kind, turnOffOwnTools))
                    ApplyOutcome.Applied
                } catch (e: Exception) {
                    ApplyOutcome.Failed(e.message ?: e.toString())
                },
            )
        }
    }

    @AfterEach
    fun cleanup() = TestSupport.deleteTree(home)

    private fun panel(path: String = ""): ConnectAgentPanel {
        val connect = AgentConnect(attach, home, mapOf("PATH" to path, "HOME" to home.toString()), OsFamily.LINUX)
        return onEdt { ConnectAgentPanel(connect, host(connect)) }
    }

    @Test
    fun `each agent's tab shows its configuration with this installation's paths, and Copy copies exactly that`() = onEdt {
        val p = panel()
        assertEquals(listOf("Claude Code", "Codex CLI", "Gemini CLI", "Other MCP Client"), p.tabs.tabs().map { it.title })
        assertEquals("claude mcp add --scope user wave -- /opt/node/bin/node /opt/idea/plugins/wave-tools/core/wave-core.js mcp --attach", p.snippet.text)
        p.copyButton.doClick()
        assertEquals(listOf(p.snippet.text), copied)
        assertEquals(WaveBundle.message("connect.copied.text"), p.outcome.plainText)

        p.tabs.select(AgentKind.CODEX.name)
        assertTrue(p.snippet.text.startsWith("[mcp_servers.wave]\ncommand = \"/opt/node/bin/node\""), p.snippet.text)
        assertTrue(p.hint.plainText.contains(home.resolve(".codex/config.toml").toString()), p.hint.plainText)
        assertTrue(p.ownToolsNote.plainText.contains("shell_tool = false"))

        p.tabs.select(AgentKind.GEMINI.name)
        assertTrue(p.snippet.text.contains("\"trust\": true"))
        assertTrue(p.ownToolsNote.plainText.contains("run_shell_command"))

        p.tabs.select(AgentKind.OTHER.name)
        assertFalse(p.applyButton.isVisible, "nothing to apply for a client of unknown shape")
        assertTrue(p.snippet.text.contains("\"args\": ["))
    }

    @Test
    fun `Apply writes Codex's config through the host and says what to do next`() {
        val p = panel()
        onEdt {
            p.tabs.select(AgentKind.CODEX.name)
            p.ownTools.isSelected = true
            p.applyButton.doClick()
            assertEquals(WaveBundle.message("connect.applied.text", "Codex CLI"), p.outcome.plainText)
            assertEquals(Tone.SUCCESS, p.outcome.tone)
        }
        val config = Files.readString(home.resolve(".codex/config.toml"))
        assertTrue(config.contains("[mcp_servers.wave]") && config.contains("[features]\nshell_tool = false"), config)
    }

    @Test
    fun `a config Apply cannot edit safely is left alone, and the panel says why`() {
        Files.createDirectories(home.resolve(".gemini"))
        Files.writeString(home.resolve(".gemini/settings.json"), "{\n  // my settings\n  \"ui\": {}\n}\n")
        val p = panel()
        onEdt {
            p.tabs.select(AgentKind.GEMINI.name)
            p.applyButton.doClick()
            assertEquals(Tone.ERROR, p.outcome.tone)
            assertTrue(p.outcome.plainText.contains("has comments or other syntax beyond plain JSON"), p.outcome.plainText)
        }
        assertEquals("{\n  // my settings\n  \"ui\": {}\n}\n", Files.readString(home.resolve(".gemini/settings.json")))
    }

    @Test
    fun `without claude on the IDE's PATH Apply is off and the panel says to run the command in a terminal`() = onEdt {
        val p = panel()
        assertFalse(p.applyButton.isEnabled)
        assertFalse(p.ownTools.isVisible)
        assertEquals(WaveBundle.message("connect.cliMissing.text", "claude"), p.outcome.plainText)
    }
}
