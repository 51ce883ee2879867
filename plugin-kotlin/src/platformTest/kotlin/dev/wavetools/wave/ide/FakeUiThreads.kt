package dev.wavetools.wave.ide

import com.intellij.openapi.project.Project
import java.awt.Component
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/**
 * A fake UI thread with the platform's modality rule: a runnable posted with a modality runs only
 * while no dialog above it is open (non-modal: only when no dialog is open; a dialog's: while that
 * dialog or one below it is on top; any: always). Dialogs open and close on the fake UI thread.
 * It also records which thread each piece of slow work ran on.
 */
class FakeUiThreads : UiThreads, AutoCloseable {
    class Modality(val depth: Int) {
        override fun toString() = if (depth == Int.MAX_VALUE) "any" else "modality $depth"
    }

    val nonModal = Modality(0)
    override val anyModality: Any = Modality(Int.MAX_VALUE)

    @Volatile
    private var uiThread: Thread? = null
    private val ui = Executors.newSingleThreadExecutor { r -> Thread(r, "fake-ui").also { uiThread = it; it.isDaemon = true } }
    private val pool = Executors.newCachedThreadPool { r -> Thread(r, "fake-pooled").apply { isDaemon = true } }

    /** Touched on the fake UI thread only. */
    private val dialogs = ArrayList<Component>()
    private val queue = ArrayList<Pair<Modality, () -> Unit>>()

    /** Titles of the progresses work ran under, and whether that work ran on the UI thread. */
    val progressWork = CopyOnWriteArrayList<Pair<String, Boolean>>()

    override val isUiThread: Boolean get() = Thread.currentThread() === uiThread

    /** How many dialogs are open (read on the fake UI thread). */
    val openDialogs: Int get() = dialogs.size

    fun <T> onUi(block: () -> T): T = CompletableFuture.supplyAsync(block, ui).get(30, TimeUnit.SECONDS)

    fun openDialog(content: Component) = onUi { dialogs += content }

    fun closeDialog(content: Component) = onUi {
        dialogs -= content
        pump()
    }

    override fun pooled(task: () -> Unit) {
        pool.execute(task)
    }

    override fun modalityOf(component: Component): Any {
        check(isUiThread) { "modalityOf must be called on the UI thread" }
        val index = dialogs.indexOfFirst { it === component || javax.swing.SwingUtilities.isDescendingFrom(component, it) }
        return if (index < 0) nonModal else Modality(index + 1)
    }

    override fun later(modality: Any, task: () -> Unit) {
        ui.execute {
            queue += (modality as Modality) to task
            pump()
        }
    }

    /** Runs, in order, every queued runnable its modality lets run now. */
    private fun pump() {
        while (true) {
            val next = queue.firstOrNull { (m, _) -> m.depth >= dialogs.size } ?: return
            queue.remove(next)
            next.second()
        }
    }

    /** Waits until every runnable the UI thread may run now has run. */
    fun flush() = onUi { pump() }

    override fun <T> inBackground(project: Project?, title: String, task: () -> T, then: (Result<T>) -> Unit) {
        pool.execute {
            val outcome = runCatching { task() }
            progressWork += title to isUiThread
            later(anyModality) { then(outcome) }
        }
    }

    override fun <T> underProgress(project: Project?, title: String, task: () -> T): Result<T> {
        // The platform runs the task on a pooled thread while the UI thread shows the progress.
        val outcome = CompletableFuture.supplyAsync({ runCatching { task() }.also { progressWork += title to isUiThread } }, pool).get(60, TimeUnit.SECONDS)
        return outcome
    }

    override fun close() {
        ui.shutdownNow()
        pool.shutdownNow()
    }
}
