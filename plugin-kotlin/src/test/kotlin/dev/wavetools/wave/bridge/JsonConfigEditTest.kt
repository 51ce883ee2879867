package dev.wavetools.wave.bridge

import com.google.gson.JsonObject
import com.google.gson.JsonParser
import com.google.gson.JsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Merging Wave into an agent's JSON settings without losing the user's other entries. */
class JsonConfigEditTest {
    private val claudeSettings = """
        {
            "${'$'}schema": "https://json.schemastore.org/claude-code-settings.json",
            "model": "opus",
            "cleanupPeriodDays": 30,
            "env": {"DISABLE_TELEMETRY": "1"},
            "permissions": {
                "allow": [
                    "Bash(npm run test:*)",
                    "mcp__github__get_issue"
                ],
                "deny": [],
                "additionalDirectories": ["../docs"],
                "defaultMode": null
            },
            "hooks": {
                "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "prettier --write \"${'$'}FILE\" <&- >/dev/null"}]}]
            },
            "ratio": 1.50,
            "big": 12345678901234567890
        }
    """.trimIndent() + "\n"

    @Test
    fun `adds to a list without touching anything else, in the file's own indentation`() {
        val edit = JsonConfigEdit.parse(claudeSettings, "settings.json")
            .addToArray(listOf("permissions", "allow"), listOf("mcp__wave"))
            .addToArray(listOf("permissions", "deny"), listOf("Bash", "Edit"))
        val out = edit.render()
        val before = JsonParser.parseString(claudeSettings).asJsonObject
        val after = JsonParser.parseString(out).asJsonObject
        val permissions = after.getAsJsonObject("permissions")
        assertEquals(listOf("Bash(npm run test:*)", "mcp__github__get_issue", "mcp__wave"), permissions.getAsJsonArray("allow").map { it.asString })
        assertEquals(listOf("Bash", "Edit"), permissions.getAsJsonArray("deny").map { it.asString })
        // Everything else is as it was: members, order, nulls, the hook's quotes and redirections.
        for (key in before.keySet()) if (key != "permissions") assertEquals(before.get(key), after.get(key), key)
        assertEquals(before.keySet().toList(), after.keySet().toList())
        assertTrue(permissions.has("defaultMode") && permissions.get("defaultMode").isJsonNull)
        assertTrue(out.contains("\"command\": \"prettier --write \\\"\$FILE\\\" <&- >/dev/null\""), out)
        // Number spellings are kept (no 1.5, no 1.2345678901234567E19).
        assertTrue(out.contains("\"ratio\": 1.50") && out.contains("\"big\": 12345678901234567890"), out)
        assertTrue(out.startsWith("{\n    \"\$schema\""), "four-space indentation kept:\n$out")
        assertTrue(out.endsWith("}\n"))
        // Applying again changes nothing.
        assertEquals(out, JsonConfigEdit.parse(out, "settings.json").addToArray(listOf("permissions", "allow"), listOf("mcp__wave")).addToArray(listOf("permissions", "deny"), listOf("Bash", "Edit")).render())
    }

    @Test
    fun `sets a server, replacing only that one`() {
        val gemini = """
          {
            "ui": {"theme": "GitHub"},
            "mcpServers": {
              "github": {"httpUrl": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${'$'}GITHUB_TOKEN"}},
              "wave": {"command": "/old/node", "args": ["/old/wave-core.js", "mcp"], "timeout": 5000}
            },
            "security": {"auth": {"selectedType": "gemini-api-key"}}
          }
        """.trimIndent()
        val server = JsonObject().apply {
            addProperty("command", "/usr/bin/node")
            add("args", JsonParser.parseString("""["/opt/wave/wave-core.js", "mcp", "--attach"]"""))
            addProperty("trust", true)
        }
        val out = JsonConfigEdit.parse(gemini, "settings.json").set(listOf("mcpServers", "wave"), server).render()
        val after = JsonParser.parseString(out).asJsonObject
        assertEquals(server, after.getAsJsonObject("mcpServers").get("wave"))
        assertEquals(JsonParser.parseString(gemini).asJsonObject.getAsJsonObject("mcpServers").get("github"), after.getAsJsonObject("mcpServers").get("github"))
        assertEquals(listOf("ui", "mcpServers", "security"), after.keySet().toList())
        assertEquals(listOf("github", "wave"), after.getAsJsonObject("mcpServers").keySet().toList())
        // No trailing newline before, none after; two-space indentation kept.
        assertTrue(out.endsWith("}") && out.startsWith("{\n  \"ui\""), out)
    }

    @Test
    fun `a missing or empty file becomes an object with just the change`() {
        for (text in listOf(null, "", "  \n")) {
            val out = JsonConfigEdit.parse(text, "settings.json").set(listOf("mcpServers", "wave"), JsonPrimitive("x")).render()
            assertEquals("{\n  \"mcpServers\": {\n    \"wave\": \"x\"\n  }\n}\n", out)
        }
    }

    @Test
    fun `files it cannot write back faithfully are refused, saying why and what to do`() {
        val cases = mapOf(
            "{\n  // my servers\n  \"mcpServers\": {}\n}" to "has comments or other syntax beyond plain JSON, which writing it back would lose",
            "{\"a\": 1,}" to "is not valid JSON",
            "{'a': 1}" to "has comments or other syntax beyond plain JSON",
            "{\"a\": " to "is not valid JSON",
            "[1, 2]" to "does not hold a JSON object at the top",
            "{\"a\": 1} {\"b\": 2}" to "has more after its JSON value",
        )
        for ((text, expected) in cases) {
            val e = assertThrows<ConfigEditException> { JsonConfigEdit.parse(text, "/home/u/.gemini/settings.json") }
            assertTrue(e.message!!.startsWith("/home/u/.gemini/settings.json ") && e.message!!.contains(expected), "$text: ${e.message}")
        }
        val notAList = JsonConfigEdit.parse("""{"permissions": {"allow": "Bash"}}""", "settings.json")
        assertTrue(assertThrows<ConfigEditException> { notAList.addToArray(listOf("permissions", "allow"), listOf("mcp__wave")) }.message!!.contains("permissions.allow set to \"Bash\", not a list"))
        val notAnObject = JsonConfigEdit.parse("""{"mcpServers": []}""", "settings.json")
        assertTrue(assertThrows<ConfigEditException> { notAnObject.set(listOf("mcpServers", "wave"), JsonPrimitive(1)) }.message!!.contains("mcpServers set to [], not an object"))
    }
}
