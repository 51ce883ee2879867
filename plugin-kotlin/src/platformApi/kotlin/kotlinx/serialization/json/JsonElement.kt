// Declares (compile-only, never shipped): Kotlin/kotlinx.serialization formats/json/commonMain/src/kotlinx/serialization/json/JsonElement.kt @ 013235124b2c0bbede4a403d7813f9ec86984205
package kotlinx.serialization.json

// Working bodies: the tests exchange real values with the MCP declarations. The IDE supplies the
// real library (bundled with the platform); only the members ide/ uses are declared.
sealed class JsonElement

sealed class JsonPrimitive : JsonElement() {
  abstract val isString: Boolean
  abstract val content: String
  override fun toString(): String = content
}

object JsonNull : JsonPrimitive() {
  override val isString: Boolean get() = false
  override val content: String get() = "null"
}

private class JsonLiteral(private val body: Any, override val isString: Boolean) : JsonPrimitive() {
  override val content: String get() = body.toString()
  override fun equals(other: Any?): Boolean = other is JsonLiteral && other.isString == isString && other.content == content
  override fun hashCode(): Int = 31 * isString.hashCode() + content.hashCode()
}

fun JsonPrimitive(value: Boolean?): JsonPrimitive = if (value == null) JsonNull else JsonLiteral(value, isString = false)
fun JsonPrimitive(value: Number?): JsonPrimitive = if (value == null) JsonNull else JsonLiteral(value, isString = false)
fun JsonPrimitive(value: String?): JsonPrimitive = if (value == null) JsonNull else JsonLiteral(value, isString = true)

class JsonObject(private val content: Map<String, JsonElement>) : JsonElement(), Map<String, JsonElement> by content {
  override fun equals(other: Any?): Boolean = content == other
  override fun hashCode(): Int = content.hashCode()
  override fun toString(): String = content.toString()
}

class JsonArray(private val content: List<JsonElement>) : JsonElement(), List<JsonElement> by content {
  override fun equals(other: Any?): Boolean = content == other
  override fun hashCode(): Int = content.hashCode()
  override fun toString(): String = content.toString()
}
