package dev.wavetools.wave.bridge

import com.google.gson.Gson
import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonPrimitive
import com.google.gson.stream.JsonReader
import com.google.gson.stream.JsonToken
import com.google.gson.stream.JsonWriter
import java.io.StringReader
import java.io.StringWriter

/**
 * Edits an agent's JSON settings file without losing anything in it: the whole file is read
 * strictly (a file with comments or other non-JSON syntax is refused, since writing it back would
 * drop them), the change is made to the tree, and the tree is written back with the file's own
 * indentation, every other member kept in order, nulls and number spellings included.
 */
class JsonConfigEdit private constructor(private val original: String?, val root: JsonObject, private val fileLabel: String) {
    /** Sets `path` (objects created as needed) to [value], replacing what was there. */
    fun set(path: List<String>, value: JsonElement): JsonConfigEdit {
        parent(path)[path.last()] = value.deepCopy()
        return this
    }

    /** Adds each of [values] that is not yet in the array at `path` (created if missing), keeping the order of the rest. */
    fun addToArray(path: List<String>, values: List<String>): JsonConfigEdit {
        val parent = parent(path)
        val existing = parent.get(path.last())
        val array = when {
            existing == null || existing.isJsonNull -> JsonArray().also { parent.add(path.last(), it) }
            existing.isJsonArray -> existing.asJsonArray
            else -> throw ConfigEditException("$fileLabel has ${path.joinToString(".")} set to ${existing}, not a list; fix it by hand.")
        }
        for (v in values) if (array.none { it.isJsonPrimitive && it.asJsonPrimitive.isString && it.asString == v }) array.add(JsonPrimitive(v))
        return this
    }

    private fun parent(path: List<String>): JsonObject {
        require(path.isNotEmpty())
        var node = root
        for ((i, name) in path.dropLast(1).withIndex()) {
            val child = node.get(name)
            node = when {
                child == null || child.isJsonNull -> JsonObject().also { node.add(name, it) }
                child.isJsonObject -> child.asJsonObject
                else -> throw ConfigEditException("$fileLabel has ${path.take(i + 1).joinToString(".")} set to $child, not an object; fix it by hand.")
            }
        }
        return node
    }

    private operator fun JsonObject.set(name: String, value: JsonElement) = add(name, value)

    /** The file's new text. */
    fun render(): String {
        val out = StringWriter()
        JsonWriter(out).use { writer ->
            writer.setIndent(indentOf(original))
            writer.serializeNulls = true
            writer.isHtmlSafe = false
            GSON.getAdapter(JsonElement::class.java).write(writer, root)
        }
        val newline = if (original?.contains("\r\n") == true) "\r\n" else "\n"
        val text = out.toString().replace("\n", newline)
        return if (original == null || original.endsWith("\n") || original.isBlank()) text + newline else text
    }

    companion object {
        private val GSON = Gson()

        /** Reads a settings file (null or blank: an empty object). Throws [ConfigEditException] when it is not plain JSON with an object at the top. */
        fun parse(text: String?, fileLabel: String): JsonConfigEdit {
            if (text == null || text.isBlank()) return JsonConfigEdit(text, JsonObject(), fileLabel)
            val element = try {
                JsonReader(StringReader(text)).use { reader ->
                    reader.isLenient = false
                    val value = GSON.getAdapter(JsonElement::class.java).read(reader)
                    val more = try {
                        reader.peek() != JsonToken.END_DOCUMENT
                    } catch (_: java.io.IOException) {
                        true
                    }
                    if (more) throw ConfigEditException("$fileLabel has more after its JSON value; fix it by hand.")
                    value
                }
            } catch (e: ConfigEditException) {
                throw e
            } catch (e: Exception) {
                val lenientlyReadable = try {
                    JsonReader(StringReader(text)).use { r -> r.isLenient = true; GSON.getAdapter(JsonElement::class.java).read(r); true }
                } catch (_: Exception) {
                    false
                }
                throw ConfigEditException(
                    if (lenientlyReadable) {
                        "$fileLabel has comments or other syntax beyond plain JSON, which writing it back would lose. Copy the configuration and add it by hand."
                    } else {
                        "$fileLabel is not valid JSON (${e.message?.substringBefore(" See https")}); fix it, or copy the configuration and add it by hand."
                    },
                )
            }
            if (!element.isJsonObject) throw ConfigEditException("$fileLabel does not hold a JSON object at the top; fix it by hand.")
            return JsonConfigEdit(text, element.asJsonObject, fileLabel)
        }

        /** The indentation the file uses (its first indented member), two spaces when it has none. */
        internal fun indentOf(text: String?): String {
            if (text == null) return "  "
            val m = Regex("""\n([ \t]+)["}\]]""").find(text) ?: return "  "
            return m.groupValues[1]
        }
    }
}
