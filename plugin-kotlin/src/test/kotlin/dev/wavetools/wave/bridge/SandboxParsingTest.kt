package dev.wavetools.wave.bridge

import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The OS-sandbox fields newer cores send (`env/status` `sandbox`, `permission/request` `sandboxed` /
 * `outsideSandboxReason`, the shell results' `sandboxed`), read from JSON as the core writes them:
 * absent means unknown, and a shape this host does not know never breaks the rest of the message.
 */
class SandboxParsingTest {
    private fun env(json: String): EnvStatus = Json.decode(JsonParser.parseString(json))

    @Test
    fun `env status - bubblewrap with the network denied, seatbelt, and none with the reason and the remedy`() {
        val bwrap = env("""{"state":"ok","shell":"/bin/bash","adoptedKeys":["PATH"],"sandbox":{"active":true,"kind":"bubblewrap","network":"deny"}}""")
        assertEquals(SandboxStatus(active = true, kind = "bubblewrap", network = "deny"), bwrap.sandbox)
        assertTrue(bwrap.sandbox!!.networkDenied)
        assertEquals(listOf("PATH"), bwrap.adoptedKeys, "the rest of the message is read as before")

        val seatbelt = env("""{"state":"ok","sandbox":{"active":true,"kind":"seatbelt","network":"allow"}}""").sandbox!!
        assertEquals("seatbelt", seatbelt.kind)
        assertFalse(seatbelt.networkDenied)

        val none = env("""{"state":"ok","sandbox":{"active":false,"kind":"none","network":"allow","reason":"bwrap is not installed","remedy":"Install the bubblewrap package."}}""").sandbox!!
        assertEquals(SandboxStatus(false, "none", "allow", "bwrap is not installed", "Install the bubblewrap package."), none)
    }

    @Test
    fun `env status - a core that says nothing about a sandbox, or says it in an unknown shape, gives null and the rest stays`() {
        assertNull(env("""{"state":"ok","shell":"/bin/zsh"}""").sandbox)
        assertNull(env("""{"state":"ok","sandbox":null}""").sandbox)
        assertNull(env("""{"state":"ok","sandbox":"bubblewrap"}""").sandbox)
        assertNull(env("""{"state":"ok","sandbox":[true]}""").sandbox)
        assertNull(env("""{"state":"ok","sandbox":{"network":"deny"}}""").sandbox, "neither active nor kind: nothing to show")
        val oddFields = env("""{"state":"degraded","reason":"PATH only","sandbox":{"active":"yes","kind":"bubblewrap","network":7}}""")
        assertEquals("degraded", oddFields.state)
        assertEquals(SandboxStatus(active = true, kind = "bubblewrap", network = null), oddFields.sandbox, "a wrong-typed field is unknown; kind still tells")
        assertEquals(SandboxStatus(active = true, kind = "firejail"), env("""{"state":"ok","sandbox":{"active":true,"kind":"firejail"}}""").sandbox)
    }

    @Test
    fun `env statusChanged is dispatched with the sandbox`() {
        var seen: EnvStatus? = null
        CoreEvents.dispatch(object : CoreEvents {
            override fun envStatusChanged(status: EnvStatus) { seen = status }
        }, CoreNotifications.ENV_STATUS_CHANGED, JsonParser.parseString("""{"state":"ok","sandbox":{"active":false,"kind":"none","reason":"not supported on this system"}}"""))
        assertEquals("not supported on this system", seen!!.sandbox!!.reason)
    }

    @Test
    fun `permission request - a command that would run outside the sandbox, one inside, and an older core`() {
        fun prompt(extra: String): PermissionPrompt =
            Json.decode(JsonParser.parseString("""{"callId":"c1","sessionId":"main","tool":"Bash","kind":"command","command":"docker ps","directory":"/w","reason":"r"$extra}"""))
        val outside = prompt(""","sandboxed":false,"outsideSandboxReason":"docker needs the host's socket"""")
        assertTrue(outside.runsOutsideSandbox)
        assertEquals("docker needs the host's socket", outside.outsideSandboxReason)
        val inside = prompt(""","sandboxed":true""")
        assertFalse(inside.runsOutsideSandbox)
        assertNull(inside.outsideSandboxReason)
        val older = prompt("")
        assertNull(older.sandboxed)
        assertFalse(older.runsOutsideSandbox, "unknown is not outside")
        val odd = prompt(""","sandboxed":"no","outsideSandboxReason":{"text":"x"}""")
        assertNull(odd.sandboxed)
        assertNull(odd.outsideSandboxReason)
        assertEquals("docker ps", odd.command)
    }

    @Test
    fun `Bash and run_shell_command results say whether the command ran inside the sandbox`() {
        fun result(structured: String) = CallToolResult(structuredContent = JsonParser.parseString(structured).asJsonObject)
        assertEquals(false, BashResult.from(result("""{"success":true,"exitCode":0,"output":"hi\n","sandboxed":false}""")).sandboxed)
        assertEquals(true, BashResult.from(result("""{"success":true,"exitCode":0,"output":"hi\n","sandboxed":true}""")).sandboxed)
        assertNull(BashResult.from(result("""{"success":true,"exitCode":0,"output":"hi\n"}""")).sandboxed)
        assertEquals(false, ShellCommandResult.from(result("""{"command":"ls","directory":"(root)","stdout":"","stderr":"","exitCode":0,"sandboxed":false}""")).sandboxed)
        assertNull(ShellCommandResult.from(result("""{"command":"ls","directory":"(root)","stdout":"","stderr":"","exitCode":0,"sandboxed":1}""")).sandboxed)
    }
}
