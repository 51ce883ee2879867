package dev.wavetools.wave.bridge

import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.lang.reflect.Field
import java.lang.reflect.Modifier
import java.lang.reflect.ParameterizedType
import java.lang.reflect.Type
import java.lang.reflect.WildcardType
import java.nio.file.Files
import java.nio.file.Path

/**
 * The bridge's protocol classes (Protocol.kt) against the protocol's JSON Schema, which node-core
 * generates from its zod schemas (test-fixtures/protocol/schema/wave-protocol.schema.json,
 * `npm run protocol:schema`): every method and notification the plugin uses exists, and every field
 * a data class reads exists in the message it is read from, with a type Gson can read it as. A
 * field renamed on either side fails here, before a transcript or a user meets it.
 */
class ProtocolSchemaTest {
    private val schema: JsonObject = JsonParser.parseString(Files.readString(SCHEMA_FILE)).asJsonObject
    private val mainSources: Map<String, String> = Files.walk(MAIN_SOURCES).use { s ->
        s.filter { it.toString().endsWith(".kt") }.toList().associate { MAIN_SOURCES.relativize(it).toString() to Files.readString(it) }
    }

    @Test
    fun `every method and notification the plugin uses is in the protocol's schema`() {
        val used = ProtocolUse.of(mainSources)
        // The scan sees the bridge's calls (a broken scan would pass vacuously).
        assertTrue("tools/call" in used.requests && "initialize" in used.requests && "tool/finished" in used.notificationsRead, "$used")
        val problems = used.problems(schema)
        assertEquals(emptyList<String>(), problems, "the plugin uses methods the core's schema does not have")
    }

    @Test
    fun `every field the bridge's classes read is in the schema with a compatible type`() {
        val problems = SchemaCheck.protocolProblems(schema, mainSources)
        assertEquals(emptyList<String>(), problems, "Protocol.kt and the core's schema disagree (regenerate the schema with `npm run protocol:schema` if the core changed)")
    }

    @Test
    fun `a field renamed in the core's schema fails the check`() {
        val renamed = schema.deepCopy()
        val task = renamed.at("methods", "tasks/list", "result", "properties", "tasks", "items", "properties")
        task.add("taskID", task.remove("taskId"))
        val problems = SchemaCheck.protocolProblems(renamed, mainSources)
        assertTrue(problems.any { it.startsWith("tasks/list result: TasksListResult.tasks[].taskId: no such field in the schema") && it.contains("taskID") }, problems.joinToString("\n"))
        // The other readers of TaskInfo (tasks/stop, task/started, task/finished) still fit: only the renamed message fails.
        assertEquals(1, problems.size, problems.joinToString("\n"))
    }

    @Test
    fun `a field renamed or retyped in a Kotlin class fails the check`() {
        val taskSchema = schema.at("methods", "tasks/list", "result", "properties", "tasks", "items")
        assertEquals(emptyList<String>(), SchemaCheck.classProblems(TaskInfo::class.java, taskSchema, "TaskInfo"))
        val renamed = SchemaCheck.classProblems(RenamedTask::class.java, taskSchema, "RenamedTask")
        assertEquals(listOf("RenamedTask.taskID: no such field in the schema (it has command, description, endedAt, exitCode, origin, outputPath, pid, runtimeMs, sessionId, signal, startedAt, status, survivors, taskId)"), renamed)
        val retyped = SchemaCheck.classProblems(RetypedTask::class.java, taskSchema, "RetypedTask")
        assertEquals(2, retyped.size, retyped.joinToString("\n"))
        assertTrue(retyped[0].startsWith("RetypedTask.exitCode: the schema allows null, but the Kotlin field is a primitive int"), retyped[0])
        assertTrue(retyped[1].startsWith("RetypedTask.pid: the schema has integer, the Kotlin field is java.lang.String"), retyped[1])
    }

    @Test
    fun `the generated schema file is there and names the methods and notifications`() {
        assertTrue(schema.getAsJsonObject("methods").has("tools/call"))
        assertTrue(schema.getAsJsonObject("notifications").getAsJsonObject("coreToHost").has("tool/finished"))
        assertTrue(schema.getAsJsonObject("coreRequests").has(CoreRequests.PERMISSION_REQUEST))
    }

    // A TaskInfo whose author misspelt a field, and one with two wrong types.
    data class RenamedTask(val taskID: String = "")
    data class RetypedTask(val exitCode: Int = 0, val pid: String? = null)

    companion object {
        val SCHEMA_FILE: Path = TestSupport.repoRoot.resolve("test-fixtures/protocol/schema/wave-protocol.schema.json")
        val MAIN_SOURCES: Path = TestSupport.repoRoot.resolve("plugin-kotlin/src/main/kotlin/dev/wavetools/wave")
    }
}

private fun JsonObject.at(vararg keys: String): JsonObject = keys.fold(this) { o, k -> o.getAsJsonObject(k) ?: error("no $k in the schema") }

/** The methods the plugin's sources name, by direction. */
data class ProtocolUse(
    /** Requests the plugin sends (`rpc.request<T>("m", …)`), with the class it decodes the result as. */
    val requests: Map<String, String>,
    /** Notifications the plugin sends. */
    val notificationsSent: Set<String>,
    /** Notifications the plugin reads. */
    val notificationsRead: Set<String>,
    /** Requests the core sends that the plugin answers. */
    val coreRequests: Set<String>,
) {
    fun problems(schema: JsonObject): List<String> {
        val methods = schema.getAsJsonObject("methods")
        val toHost = schema.getAsJsonObject("notifications").getAsJsonObject("coreToHost")
        val toCore = schema.getAsJsonObject("notifications").getAsJsonObject("hostToCore")
        val asked = schema.getAsJsonObject("coreRequests")
        return requests.keys.filterNot(methods::has).map { "request $it: the core has no such method" } +
            notificationsSent.filterNot(toCore::has).map { "notification $it (host to core): the core takes no such notification" } +
            notificationsRead.filterNot(toHost::has).map { "notification $it (core to host): the core sends no such notification" } +
            coreRequests.filterNot(asked::has).map { "core request $it: the core sends no such request" }
    }

    companion object {
        private fun unescape(s: String) = s.replace("\\$", "$")

        fun of(sources: Map<String, String>): ProtocolUse {
            val all = sources.values.joinToString("\n")
            val requests = Regex("""\.request<([\w?]+)>\(\s*"([^"]+)"""").findAll(all).associate { unescape(it.groupValues[2]) to it.groupValues[1] }
            val sent = Regex("""\.notify\(\s*"([^"]+)"""").findAll(all).map { unescape(it.groupValues[1]) }.toSet()
            val read = CoreNotifications::class.java.declaredFields.filter { Modifier.isStatic(it.modifiers) && it.type == String::class.java }
                .map { it.get(null) as String }.toSet() +
                Regex("""method == "([^"]+)"""").findAll(all).map { unescape(it.groupValues[1]) } +
                JsonRpcClient.CANCEL_REQUEST
            val coreRequests = CoreRequests::class.java.declaredFields.filter { Modifier.isStatic(it.modifiers) && it.type == String::class.java }
                .map { it.get(null) as String }.toSet()
            return ProtocolUse(requests, sent, read, coreRequests)
        }
    }
}

/**
 * Checks a Kotlin class Gson decodes a message into against that message's JSON Schema: each
 * instance field must be a property of the schema (of one branch, for a union), and its type one
 * Gson reads the property's values as. A schema that allows null needs a nullable field (checked
 * for primitives: Kotlin's nullability of reference types is not visible without kotlin-reflect).
 */
object SchemaCheck {
    /** Fields the bridge adds itself and never reads from the wire. */
    private val HOST_ONLY = setOf(
        // The whole result, joined to the event by WaveCoreApi.completeFinished.
        "ToolFinished.result",
        "ToolFinished.resultUnavailable",
    )

    /** Classes read from notification params, as CoreEvents.dispatch decodes them. */
    fun notificationClasses(sources: Map<String, String>): Map<String, Class<*>> {
        val dispatch = sources.values.first { it.contains("fun dispatch(listener: CoreEvents") }
        val constants = CoreNotifications::class.java.declaredFields.filter { Modifier.isStatic(it.modifiers) && it.type == String::class.java }
            .associate { it.name to it.get(null) as String }
        return Regex("""CoreNotifications\.(\w+) -> listener\.(\w+)\(Json\.decode(?:<(\w+)>)?\(params\)""").findAll(dispatch).associate { m ->
            val (constant, listenerMethod, explicit) = m.destructured
            val method = constants[constant] ?: error("no CoreNotifications.$constant")
            val type = if (explicit.isNotEmpty()) Class.forName("dev.wavetools.wave.bridge.$explicit")
            else CoreEvents::class.java.methods.first { it.name == listenerMethod }.parameterTypes[0]
            method to type
        }
    }

    fun protocolProblems(schema: JsonObject, sources: Map<String, String>): List<String> {
        val problems = mutableListOf<String>()
        val methods = schema.getAsJsonObject("methods")
        for ((method, className) in ProtocolUse.of(sources).requests) {
            if (className == "Any?" || !methods.has(method)) continue
            val type = Class.forName("dev.wavetools.wave.bridge.$className")
            problems += classProblems(type, methods.at(method, "result"), "$method result: ${type.simpleName}")
        }
        // The params the bridge sends as typed classes: the core must accept every field.
        problems += classProblems(InitializeParams::class.java, methods.at("initialize", "params"), "initialize params: InitializeParams")
        problems += classProblems(CallToolParams::class.java, methods.at("tools/call", "params"), "tools/call params: CallToolParams")
        val notifications = notificationClasses(sources)
        check(notifications.size >= 10) { "CoreEvents.dispatch was not read: $notifications" }
        val toHost = schema.getAsJsonObject("notifications").getAsJsonObject("coreToHost")
        for ((method, type) in notifications) {
            if (!toHost.has(method)) continue // reported by ProtocolUse.problems
            problems += classProblems(type, toHost.getAsJsonObject(method), "$method: ${type.simpleName}")
        }
        val ask = schema.getAsJsonObject("coreRequests").getAsJsonObject(CoreRequests.PERMISSION_REQUEST)
        problems += classProblems(PermissionPrompt::class.java, ask.getAsJsonObject("params"), "permission/request params: PermissionPrompt")
        problems += classProblems(PermissionAnswer::class.java, ask.getAsJsonObject("result"), "permission/request answer: PermissionAnswer")
        return problems
    }

    /** What does not fit; each problem starts with `where.field`. */
    fun classProblems(type: Class<*>, schema: JsonObject, where: String): List<String> {
        val problems = mutableListOf<String>()
        checkObject(type, schema, where, problems, mutableSetOf())
        return problems
    }

    private fun fields(type: Class<*>): List<Field> =
        type.declaredFields.filter { !Modifier.isStatic(it.modifiers) && !it.isSynthetic && "${type.simpleName}.${it.name}" !in HOST_ONLY }

    /** The branches of a union (anyOf/oneOf), or the schema itself. */
    private fun branches(schema: JsonObject): List<JsonObject> {
        val union = (schema.get("anyOf") ?: schema.get("oneOf"))?.takeIf { it.isJsonArray }?.asJsonArray ?: return listOf(schema)
        return union.flatMap { branches(it.asJsonObject) }
    }

    /** The JSON types a schema admits; null means any (an empty schema, `z.unknown()`). */
    private fun jsonTypes(schema: JsonObject): Set<String>? {
        val out = mutableSetOf<String>()
        for (b in branches(schema)) {
            when {
                b.has("type") -> {
                    val t = b.get("type")
                    if (t.isJsonArray) t.asJsonArray.forEach { out += it.asString } else out += t.asString
                }
                b.has("const") -> out += literalType(b.get("const"))
                b.has("enum") -> b.getAsJsonArray("enum").forEach { out += literalType(it) }
                else -> return null
            }
        }
        return out
    }

    private fun literalType(e: JsonElement): String = when {
        e.isJsonNull -> "null"
        e.isJsonPrimitive && e.asJsonPrimitive.isBoolean -> "boolean"
        e.isJsonPrimitive && e.asJsonPrimitive.isNumber -> if (e.asNumber.toDouble() % 1.0 == 0.0) "integer" else "number"
        e.isJsonPrimitive -> "string"
        e.isJsonArray -> "array"
        else -> "object"
    }

    private fun checkObject(type: Class<*>, schema: JsonObject, where: String, problems: MutableList<String>, seen: MutableSet<Pair<Class<*>, JsonObject>>) {
        if (!seen.add(type to schema)) return
        val objects = branches(schema).filter { it.has("properties") }
        if (objects.isEmpty()) return // a record (any keys) or any value: every field may be there
        val names = objects.flatMap { it.getAsJsonObject("properties").keySet() }.toSortedSet()
        for (f in fields(type)) {
            val props = objects.mapNotNull { it.getAsJsonObject("properties").getAsJsonObject(f.name) }
            if (props.isEmpty()) {
                problems += "$where.${f.name}: no such field in the schema (it has ${names.joinToString(", ")})"
                continue
            }
            for (p in props) checkValue(f.genericType, p, "$where.${f.name}", problems, seen)
        }
    }

    private fun raw(t: Type): Class<*>? = when (t) {
        is Class<*> -> t
        is ParameterizedType -> t.rawType as Class<*>
        is WildcardType -> raw(t.upperBounds[0])
        else -> null
    }

    private fun checkValue(t: Type, schema: JsonObject, where: String, problems: MutableList<String>, seen: MutableSet<Pair<Class<*>, JsonObject>>) {
        val type = raw(t) ?: return
        val admitted = jsonTypes(schema) ?: return
        if (type.isPrimitive && "null" in admitted) {
            problems += "$where: the schema allows null, but the Kotlin field is a primitive ${type.name} (make it nullable)"
        }
        val nonNull = admitted - "null"
        if (nonNull.isEmpty()) return
        val readable: Set<String>? = when {
            type == String::class.java -> setOf("string")
            type == Boolean::class.javaPrimitiveType || type == java.lang.Boolean::class.java -> setOf("boolean")
            type in INTEGERS -> setOf("integer")
            type in DECIMALS -> setOf("integer", "number")
            JsonElement::class.java == type -> null
            JsonObject::class.java == type || Map::class.java.isAssignableFrom(type) -> setOf("object")
            JsonArray::class.java == type || List::class.java.isAssignableFrom(type) || Collection::class.java.isAssignableFrom(type) -> setOf("array")
            type == Any::class.java -> null
            else -> setOf("object")
        }
        if (readable != null && !readable.containsAll(nonNull)) {
            problems += "$where: the schema has ${nonNull.sorted().joinToString(" | ")}, the Kotlin field is ${type.name}, which Gson cannot read ${(nonNull - readable).sorted().joinToString(" | ")} into"
            return
        }
        when {
            List::class.java.isAssignableFrom(type) && t is ParameterizedType -> {
                val items = branches(schema).mapNotNull { it.getAsJsonObject("items") }
                for (i in items) checkValue(t.actualTypeArguments[0], i, "$where[]", problems, seen)
            }
            type.name.startsWith("dev.wavetools.") -> checkObject(type, schema, where, problems, seen)
        }
    }

    private val INTEGERS = setOf<Class<*>?>(Int::class.javaPrimitiveType, Long::class.javaPrimitiveType, java.lang.Integer::class.java, java.lang.Long::class.java)
    private val DECIMALS = setOf<Class<*>?>(Double::class.javaPrimitiveType, Float::class.javaPrimitiveType, java.lang.Double::class.java, java.lang.Float::class.java)
}
