package dev.wavetools.wave.bridge

import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionException
import java.util.concurrent.ExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException

/**
 * What the settings page edits: the permission mode and the allow and deny rules, one per line.
 * Plain values, so the IDE page only binds fields to them.
 */
class PermissionSettingsForm(initial: PermissionSettings = PermissionSettings()) {
    var mode: String = PermissionModes.ASK
    var allowText: String = ""
    var denyText: String = ""

    init {
        reset(initial)
    }

    fun reset(settings: PermissionSettings) {
        mode = settings.mode ?: PermissionModes.ASK
        allowText = settings.allow.joinToString("\n")
        denyText = settings.deny.joinToString("\n")
    }

    /** What Apply would persist; blank lines and surrounding spaces are dropped. */
    fun toSettings(): PermissionSettings = PermissionSettings(mode, lines(allowText), lines(denyText))

    fun isModified(saved: PermissionSettings): Boolean {
        val now = toSettings()
        return now.mode != (saved.mode ?: PermissionModes.ASK) || now.allow != saved.allow || now.deny != saved.deny
    }

    companion object {
        fun lines(text: String): List<String> = text.lines().map { it.trim() }.filter { it.isNotEmpty() }
    }
}

/**
 * Apply on the settings page: a running core takes the rules first (all or nothing — one it cannot
 * read fails the whole change, and nothing is saved), then the mode; then the project keeps them.
 * Without a running core they are only saved, and the next core starts with them.
 */
class PermissionSettingsApplier(private val store: PermissionStore, private val api: () -> WaveCoreApi?) {
    fun apply(settings: PermissionSettings): CompletableFuture<PermissionState?> {
        val core = api() ?: return CompletableFuture.completedFuture<PermissionState?>(null).also { store.save(settings) }
        return core.permissionsSetRules(settings.allow, settings.deny)
            .thenCompose { core.permissionsSetMode(settings.mode ?: PermissionModes.ASK) }
            .thenApply<PermissionState?> { state ->
                store.save(settings)
                state
            }
    }

    /**
     * [apply], waiting at most [timeout] (the core answers these at once). Returns null when done,
     * or a message for the person: the rule the core could not read and why, or why it failed.
     */
    fun applyAndWait(settings: PermissionSettings, timeout: Duration = Duration.ofSeconds(5)): String? = try {
        apply(settings).get(timeout.toMillis(), TimeUnit.MILLISECONDS)
        null
    } catch (e: ExecutionException) {
        describe(e.cause ?: e)
    } catch (e: CompletionException) {
        describe(e.cause ?: e)
    } catch (e: TimeoutException) {
        "wave-core did not answer within ${timeout.seconds} s; the rules were not changed."
    }

    private fun describe(e: Throwable): String = when (e) {
        is RpcException -> {
            val rule = e.data?.takeIf { it.isJsonObject }?.asJsonObject?.get("rule")?.takeIf { it.isJsonPrimitive }?.asString
            val text = e.message?.substringAfter("): ", e.message ?: "") ?: ""
            if (rule != null && !text.contains(rule)) "$text (rule: $rule)" else text
        }
        else -> e.message ?: e.toString()
    }
}
