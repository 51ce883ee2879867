package dev.wavetools.wave.ide.mcp

import com.google.gson.JsonArray as GsonArray
import com.google.gson.JsonElement as GsonElement
import com.google.gson.JsonNull as GsonNull
import com.google.gson.JsonObject as GsonObject
import com.google.gson.JsonPrimitive as GsonPrimitive
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.math.BigDecimal

/** The IDE's MCP server speaks kotlinx.serialization JSON, the bridge Gson: the same trees, converted losslessly. */
object McpJson {
    fun toKotlinx(e: GsonElement?): JsonElement = when {
        e == null || e.isJsonNull -> JsonNull
        e.isJsonObject -> toKotlinx(e.asJsonObject)
        e.isJsonArray -> JsonArray(e.asJsonArray.map { toKotlinx(it) })
        else -> {
            val p = e.asJsonPrimitive
            when {
                p.isBoolean -> JsonPrimitive(p.asBoolean)
                p.isNumber -> JsonPrimitive(BigDecimal(p.asString))
                else -> JsonPrimitive(p.asString)
            }
        }
    }

    fun toKotlinx(o: GsonObject): JsonObject = JsonObject(LinkedHashMap<String, JsonElement>().also { m -> for ((k, v) in o.entrySet()) m[k] = toKotlinx(v) })

    fun toGson(e: JsonElement): GsonElement = when (e) {
        is JsonObject -> GsonObject().also { o -> for ((k, v) in e) o.add(k, toGson(v)) }
        is JsonArray -> GsonArray().also { a -> e.forEach { a.add(toGson(it)) } }
        JsonNull -> GsonNull.INSTANCE
        is JsonPrimitive -> when {
            e.isString -> GsonPrimitive(e.content)
            e.content == "true" || e.content == "false" -> GsonPrimitive(e.content.toBoolean())
            else -> GsonPrimitive(BigDecimal(e.content))
        }
    }
}
