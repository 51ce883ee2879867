package dev.wavetools.wave.bridge

import com.google.gson.JsonObject
import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.concurrent.TimeUnit

/**
 * The minimal TOML merge that adds Wave to Codex's config.toml, on files shaped like real ones.
 * Every result is read back by a real TOML parser (Python's tomllib) to prove it is valid and
 * means what it should.
 */
class TomlTableEditTest {
    private val wave = listOf("mcp_servers", "wave")
    private val entries = listOf(
        "command" to TomlValue.Str("/usr/local/bin/node"),
        "args" to TomlValue.Strs(listOf("/opt/wave/core/wave-core.js", "mcp", "--attach")),
        "tool_timeout_sec" to TomlValue.Integer(660),
        "default_tools_approval_mode" to TomlValue.Str("approve"),
    )

    /** Parses [toml] with tomllib and returns the document as JSON. */
    private fun parse(toml: String): JsonObject {
        val p = ProcessBuilder("python3", "-c", "import json,sys,tomllib; print(json.dumps(tomllib.loads(sys.stdin.read()), default=str))").redirectErrorStream(true).start()
        p.outputStream.use { it.write(toml.toByteArray()) }
        val out = p.inputStream.bufferedReader().readText()
        assertTrue(p.waitFor(30, TimeUnit.SECONDS))
        assertEquals(0, p.exitValue(), "tomllib rejected the result:\n$out\n--- toml ---\n$toml")
        return JsonParser.parseString(out).asJsonObject
    }

    private fun JsonObject.path(vararg keys: String): JsonObject = keys.fold(this) { o, k -> o.getAsJsonObject(k) }

    private fun assertWave(doc: JsonObject) {
        val w = doc.path("mcp_servers", "wave")
        assertEquals("/usr/local/bin/node", w.get("command").asString)
        assertEquals(listOf("/opt/wave/core/wave-core.js", "mcp", "--attach"), w.getAsJsonArray("args").map { it.asString })
        assertEquals(660, w.get("tool_timeout_sec").asInt)
        assertEquals("approve", w.get("default_tools_approval_mode").asString)
    }

    @Test
    fun `a new file gets just the table`() {
        val out = TomlTableEdit.upsert(null, wave, entries)
        assertEquals(
            """
            [mcp_servers.wave]
            command = "/usr/local/bin/node"
            args = ["/opt/wave/core/wave-core.js", "mcp", "--attach"]
            tool_timeout_sec = 660
            default_tools_approval_mode = "approve"

            """.trimIndent(),
            out,
        )
        assertWave(parse(out))
    }

    private val realWorld = """
        # Codex configuration
        model = "gpt-5.1-codex"
        model_reasoning_effort = "high"
        approval_policy = "on-request"
        sandbox_mode = "workspace-write"
        notify = ["bash", "-lc", "afplay /System/Library/Sounds/Blow.aiff"]
        checked = 1979-05-27 07:32:00Z
        ratio = 1e3

        [sandbox_workspace_write]
        network_access = true
        writable_roots = [
          "/Users/me/.pyenv/shims", # pyenv
          "/tmp",
        ]

        [model_providers.ollama]
        name = "Ollama"
        base_url = "http://localhost:11434/v1"
        http_headers = { "X-Example" = "a=b, c", Other = 'x]}' }

        [profiles.fast]
        model = "gpt-5-mini"
        developer_instructions = ""${'"'}
        Answer briefly.
        Never write [mcp_servers.wave] here.
        ""${'"'}

        [mcp_servers.context7]
        command = "npx"
        args = ["-y", "@upstash/context7-mcp"]
        startup_timeout_sec = 20

        [mcp_servers.context7.env]
        CONTEXT7_KEY = "k-123#not-a-comment"

        [projects."/Users/me/work/app"]
        trust_level = "trusted"
    """.trimIndent() + "\n"

    @Test
    fun `an existing config keeps every byte and gains the table at the end`() {
        val out = TomlTableEdit.upsert(realWorld, wave, entries)
        assertTrue(out.startsWith(realWorld), out)
        assertEquals("\n[mcp_servers.wave]\n", out.substring(realWorld.length, realWorld.length + 20))
        val doc = parse(out)
        assertWave(doc)
        val original = parse(realWorld)
        for (key in original.keySet()) if (key != "mcp_servers") assertEquals(original.get(key), doc.get(key), key)
        assertEquals(original.path("mcp_servers").get("context7"), doc.path("mcp_servers").get("context7"))
        assertTrue(doc.path("profiles", "fast").get("developer_instructions").asString.contains("Never write [mcp_servers.wave] here."))
    }

    @Test
    fun `an existing wave table is updated in place, the user's own keys, comments and sub-tables kept`() {
        val before = """
            model = "o3"

            [mcp_servers.wave]
            # the IDE's Wave core
            command = "/old/node"   # an old node
            args = [
              "/old/wave-core.js",  # moved since
              "mcp",
              "--attach",
            ]
            startup_timeout_sec = 30
            enabled = true

            [mcp_servers.wave.env]
            WAVE_LOG_LEVEL = "debug"

            [mcp_servers.other]
            command = "other"
        """.trimIndent() + "\n"
        val out = TomlTableEdit.upsert(before, wave, entries)
        assertEquals(
            """
            model = "o3"

            [mcp_servers.wave]
            # the IDE's Wave core
            command = "/usr/local/bin/node"   # an old node
            args = ["/opt/wave/core/wave-core.js", "mcp", "--attach"]
            startup_timeout_sec = 30
            enabled = true
            tool_timeout_sec = 660
            default_tools_approval_mode = "approve"

            [mcp_servers.wave.env]
            WAVE_LOG_LEVEL = "debug"

            [mcp_servers.other]
            command = "other"

            """.trimIndent(),
            out,
        )
        val doc = parse(out)
        assertWave(doc)
        assertEquals(30, doc.path("mcp_servers", "wave").get("startup_timeout_sec").asInt)
        assertEquals("debug", doc.path("mcp_servers", "wave", "env").get("WAVE_LOG_LEVEL").asString)
        assertEquals("other", doc.path("mcp_servers", "other").get("command").asString)
        // Applying again changes nothing.
        assertEquals(out, TomlTableEdit.upsert(out, wave, entries))
    }

    @Test
    fun `quoted table names, CRLF line endings and a last line without a newline`() {
        val before = "model = \"o3\"\r\n\r\n[ mcp_servers . \"wave\" ]\r\ncommand = 'C:\\old\\node.exe'"
        val windows = listOf(
            "command" to TomlValue.Str("C:\\Program Files\\nodejs\\node.exe"),
            "args" to TomlValue.Strs(listOf("C:\\Users\\Ann Lee\\AppData\\Roaming\\JetBrains\\plugins\\wave\\core\\wave-core.js", "mcp", "--attach")),
        )
        val out = TomlTableEdit.upsert(before, wave, windows)
        assertEquals("model = \"o3\"\r\n\r\n[ mcp_servers . \"wave\" ]\r\ncommand = \"C:\\\\Program Files\\\\nodejs\\\\node.exe\"\r\nargs = [\"C:\\\\Users\\\\Ann Lee\\\\AppData\\\\Roaming\\\\JetBrains\\\\plugins\\\\wave\\\\core\\\\wave-core.js\", \"mcp\", \"--attach\"]\r\n", out)
        val w = parse(out).path("mcp_servers", "wave")
        assertEquals("C:\\Program Files\\nodejs\\node.exe", w.get("command").asString)
        assertEquals("C:\\Users\\Ann Lee\\AppData\\Roaming\\JetBrains\\plugins\\wave\\core\\wave-core.js", w.getAsJsonArray("args")[0].asString)
    }

    @Test
    fun `strings that need escaping are written so TOML reads them back exactly`() {
        val odd = "/tmp/we\"ird \\ path\twith\u0001control"
        val out = TomlTableEdit.upsert(null, wave, listOf("command" to TomlValue.Str(odd)))
        assertEquals(odd, parse(out).path("mcp_servers", "wave").get("command").asString)
    }

    @Test
    fun `another table is added or updated the same way (features)`() {
        val before = realWorld + "\n[features]\nweb_search_request = true\nshell_tool = true # for now\n"
        val out = TomlTableEdit.upsert(before, listOf("features"), listOf("shell_tool" to TomlValue.Bool(false)))
        assertTrue(out.endsWith("[features]\nweb_search_request = true\nshell_tool = false # for now\n"), out)
        val doc = parse(out)
        assertEquals(false, doc.path("features").get("shell_tool").asBoolean)
        assertEquals(true, doc.path("features").get("web_search_request").asBoolean)
    }

    @Test
    fun `forms this merge does not edit are refused with where and what to do`() {
        val cases = mapOf(
            "mcp_servers.wave.command = \"x\"\n" to "line 1 sets mcp_servers.wave.command with a dotted key or an inline table",
            "[mcp_servers]\nwave = { command = \"x\", args = [] }\n" to "line 2 sets mcp_servers.wave with a dotted key or an inline table",
            "mcp_servers = { other = { command = \"x\" } }\n" to "line 1 sets mcp_servers with a dotted key or an inline table",
            "[mcp_servers.wave]\ncommand = \"a\"\n[mcp_servers.wave]\nargs = []\n" to "defines [mcp_servers.wave] twice (lines 1 and 3)",
            "[[mcp_servers]]\nname = \"x\"\n" to "line 1 declares [[mcp_servers]], an array of tables",
            "[mcp_servers.wave]\nargs.first = \"x\"\n" to "line 2 sets args.first inside [mcp_servers.wave]",
            "model = \"unterminated\n" to "line 1: a string runs past the end of its line",
            "args = [\"a\",\n" to "line 1: '[' is never closed",
            "x = 1 y = 2\n" to "line 1: unexpected 'y' after a value",
            "= 3\n" to "line 1: expected a key",
        )
        for ((text, expected) in cases) {
            val e = assertThrows<ConfigEditException> { TomlTableEdit.upsert(text, wave, entries, "config.toml") }
            assertTrue(e.message!!.contains(expected), "for ${text.trim()}: ${e.message}")
        }
    }
}
