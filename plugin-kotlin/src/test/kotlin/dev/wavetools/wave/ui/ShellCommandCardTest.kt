package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.ShellCommandResult
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** The run_shell_command card on the real core: the live tail from tool/progress, then the result's fields. */
class ShellCommandCardTest {
    private val root: Path = TestSupport.workspace()
    private val supervisor = CoreSupervisor(
        launch = { TestSupport.launchWithoutProbe(root) },
        initializeParams = { InitializeParams(hostInfo = HostInfo("kotlin-rsc-test"), workspaceRoot = root.toString()) },
        log = RecordingLog(),
    )
    private val controller = onEdt { WaveController(supervisor, object : HostServices {}) }

    @AfterEach
    fun cleanup() {
        onEdt { controller.dispose() }
        supervisor.close()
        TestSupport.deleteTree(root)
    }

    @Test
    fun `RSC a running command shows its latest output live, then Command, Directory, Stdout, Stderr, Error, Exit Code, Signal, Background PIDs and PGID`() {
        controller.startAndAwaitReady(supervisor)
        // The command waits for a gate file, so the test sees it running with output, whatever the machine's speed.
        val command = "echo first; echo warn >&2; while [ ! -e gate ]; do sleep 0.1; done; echo second; sleep 30 & echo done"
        val call = supervisor.requireApi().callTool("run_shell_command", mapOf("command" to command, "description" to "live output", "directory" to "src"))
        waitForUi({ "no card" }) { controller.panel.feed.card(call.callId) != null }
        val card = onEdt { controller.panel.feed.card(call.callId) as ShellCommandCard }
        waitForUi({ "no live output yet: ${card.tail?.plainText}" }) { card.tail?.plainText?.contains("first") == true }
        onEdt {
            assertTrue(card.isRunning)
            assertTrue(card.statusLabel.text.startsWith("Running"), card.statusLabel.text)
            assertTrue(card.stopAction.isVisible && card.stopAction.isEnabled, "this window started the call, so it can stop it")
            assertEquals("first\n[stderr]\nwarn", card.tail!!.plainText)
            assertTrue(card.followsFile, "read from the files tool/output names")
            assertEquals("$command\n(in src)", card.commandLabel.toolTipText)
            assertEquals("live output", card.description)
        }
        Files.writeString(root.resolve("src/gate"), "")
        val result = call.result.get(60, TimeUnit.SECONDS)
        waitForUi({ "still running" }) { !card.isRunning }
        val r = ShellCommandResult.from(result)
        try {
            onEdt {
                assertEquals("Exit 0", card.statusLabel.text.substringBefore(" ·"))
                assertEquals(listOf("Command", "Directory", "Stdout", "Stderr", "Error", "Exit Code", "Signal", "Background PIDs", "Process Group PGID"), card.fieldValues.keys.toList())
                assertEquals(command, card.fieldValues["Command"])
                assertEquals("src", card.fieldValues["Directory"])
                assertEquals("first\nsecond\ndone", card.fieldValues["Stdout"])
                assertEquals("warn", card.fieldValues["Stderr"])
                assertEquals("(none)", card.fieldValues["Error"])
                assertEquals("0", card.fieldValues["Exit Code"])
                assertEquals("(none)", card.fieldValues["Signal"])
                assertTrue(r.backgroundPids.isNotEmpty(), "sleep 30 & outlives the shell")
                assertEquals(r.backgroundPids.joinToString(", "), card.fieldValues["Background PIDs"])
                assertEquals(r.pgid.toString(), card.fieldValues["Process Group PGID"])
                assertFalse(card.stopAction.isVisible)
                // What people see: stdout as the output; stderr, the directory, the processes in Details.
                assertEquals("first\nsecond\ndone", card.output!!.plainText)
                val details = card.details!!
                assertFalse(details.expanded)
                assertEquals("stderr · 1 background process", details.summaryLabel.text)
                assertEquals("warn", details.find<OutputPane>().single().plainText)
                // The text the model reads has the same fields, in the same words.
                r.fields().forEach { (name, value) -> assertTrue(result.text.lines().any { it == "$name: ${value.lines().first()}" }, "$name: $value in\n${result.text}") }
            }
        } finally {
            r.backgroundPids.forEach { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
        }
    }

    @Test
    fun `a command killed by its timeout says so, with the signal`() {
        controller.startAndAwaitReady(supervisor)
        val call = supervisor.requireApi().callTool("run_shell_command", mapOf("command" to "sleep 30", "timeout" to 1000))
        call.result.get(60, TimeUnit.SECONDS)
        val card = onEdt { controller.panel.feed.card(call.callId) as ShellCommandCard }
        waitForUi({ "still running" }) { !card.isRunning }
        onEdt {
            assertEquals("Timed out", card.statusLabel.text.substringBefore(" ·"))
            assertEquals("(none)", card.fieldValues["Exit Code"])
            assertTrue(card.fieldValues["Error"]!!.contains("1"), card.fieldValues["Error"])
        }
    }
}
