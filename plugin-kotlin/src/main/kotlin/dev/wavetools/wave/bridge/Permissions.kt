package dev.wavetools.wave.bridge

import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The project's own permission settings, as persisted: the mode the person chose (null: the core's
 * default, `ask`) and the host's allow and deny rules. Rules given on the core's command line are
 * not part of it.
 */
data class PermissionSettings(
    val mode: String? = null,
    val allow: List<String> = emptyList(),
    val deny: List<String> = emptyList(),
) {
    /** `settings.permissions` for `initialize` (PROTOCOL.md, Settings). */
    fun toCoreSettings(): Map<String, Any?> = buildMap {
        if (mode != null) put("mode", mode)
        put("allow", allow)
        put("deny", deny)
    }

    companion object {
        /** What `permission/rulesChanged` says the host should persist. */
        fun from(event: PermissionRulesChanged) = PermissionSettings(event.hostMode, event.allow, event.deny)
    }
}

/** Where a project's [PermissionSettings] live (the IDE's project settings; a map in tests). */
interface PermissionStore {
    fun load(): PermissionSettings
    fun save(settings: PermissionSettings)
}

/**
 * One open `permission/request`: the core waits until [answer] is called or it stops waiting
 * ([cancelled]: its ask timeout ran out, the call was cancelled or ended, or the core went away).
 */
class PermissionQuestion internal constructor(
    /** Unique for this host's lifetime (the core's request ids start again with every core process). */
    val key: String,
    val prompt: PermissionPrompt,
    private val reply: CompletableFuture<PermissionAnswer>,
    val cancelled: CompletableFuture<Unit>,
) {
    val isOpen: Boolean get() = !reply.isDone && !cancelled.isDone

    /** Runs [action] once the question is answered (here or elsewhere) or withdrawn. */
    fun whenSettled(action: () -> Unit) {
        val once = java.util.concurrent.atomic.AtomicBoolean()
        val run = { if (once.compareAndSet(false, true)) action() }
        reply.whenComplete { _, _ -> run() }
        cancelled.whenComplete { _, _ -> run() }
    }

    /** Sends [answer] unless the question was answered or withdrawn already; says whether it was sent. */
    fun answer(answer: PermissionAnswer): Boolean = !cancelled.isDone && reply.complete(answer)
}

/**
 * The host side of permissions: serves `permission/request` by handing each question to the
 * listeners (the tool window shows a card), and persists the project's rules whenever the core
 * reports a change (`permission/rulesChanged`). [attachTo] wires it to every core the supervisor starts.
 */
class PermissionBridge(private val store: PermissionStore, private val log: BridgeLog) : CoreRequestHandler, CoreEvents {
    fun interface QuestionListener {
        /** Called on the bridge's reader thread. */
        fun asked(question: PermissionQuestion)
    }

    private val listeners = CopyOnWriteArrayList<QuestionListener>()
    private val questionSeq = java.util.concurrent.atomic.AtomicLong()

    fun addQuestionListener(listener: QuestionListener): AutoCloseable {
        listeners += listener
        return AutoCloseable { listeners -= listener }
    }

    fun attachTo(supervisor: CoreSupervisor): AutoCloseable {
        supervisor.handleCoreRequests(CoreRequests.PERMISSION_REQUEST, this)
        return supervisor.addEventListener(this)
    }

    /** What to send at `initialize`: this host asks, and the project's persisted mode and rules. */
    fun initializeParams(base: InitializeParams): InitializeParams = base.copy(
        capabilities = HostCapabilities(permissionRequests = true),
        settings = (base.settings ?: emptyMap()) + ("permissions" to store.load().toCoreSettings()),
    )

    override fun handle(request: CoreRequest): CompletableFuture<out Any?> {
        val prompt = try {
            Json.decode<PermissionPrompt>(request.params)
        } catch (e: Exception) {
            return CompletableFuture.failedFuture(HostRequestError(RpcErrors.INVALID_PARAMS, "Unreadable permission/request: ${e.message}"))
        }
        if (listeners.isEmpty()) {
            // Nobody can see a card: say so, and the core denies the call with that reason.
            return CompletableFuture.failedFuture(HostRequestError(RpcErrors.INTERNAL_ERROR, "The Wave tool window is not open, so nobody can be asked."))
        }
        val reply = CompletableFuture<PermissionAnswer>()
        val question = PermissionQuestion("question-${questionSeq.incrementAndGet()}", prompt, reply, request.cancelled)
        for (l in listeners) {
            try {
                l.asked(question)
            } catch (e: Exception) {
                log.error("a permission listener failed", e)
            }
        }
        return reply
    }

    override fun permissionRulesChanged(event: PermissionRulesChanged) {
        try {
            store.save(PermissionSettings.from(event))
        } catch (e: Exception) {
            log.error("could not save the project's permission rules", e)
        }
    }
}
