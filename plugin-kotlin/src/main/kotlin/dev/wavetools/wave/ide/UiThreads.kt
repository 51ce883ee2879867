package dev.wavetools.wave.ide

import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.progress.ProgressIndicator
import com.intellij.openapi.progress.ProgressManager
import com.intellij.openapi.progress.Task
import com.intellij.openapi.project.Project
import java.awt.Component
import java.util.concurrent.atomic.AtomicReference

/**
 * The UI thread and the threads beside it, as ide/ uses them. The platform's rules, which tests
 * reproduce with a fake: a runnable posted with a modality state runs only while no dialog above
 * that state is open (a pooled thread's default is non-modal, so it waits for every dialog to
 * close); slow work runs off the UI thread, under a progress the person sees when they wait for it.
 */
interface UiThreads {
    val isUiThread: Boolean

    fun pooled(task: () -> Unit)

    /** The modality of whatever dialog [component] is in (call on the UI thread). */
    fun modalityOf(component: Component): Any

    /** Runs while any dialog is open: for updates of Wave's own Swing components only. */
    val anyModality: Any

    fun later(modality: Any, task: () -> Unit)

    /** [task] on a pooled thread under a modal progress titled [title]; [then] on the UI thread with its outcome. */
    fun <T> inBackground(project: Project?, title: String, task: () -> T, then: (Result<T>) -> Unit)

    /**
     * [task] on a pooled thread while the UI thread shows a modal progress and keeps painting; returns
     * its outcome. For a caller on the UI thread that must have the answer before it returns.
     */
    fun <T> underProgress(project: Project?, title: String, task: () -> T): Result<T>
}

/** The platform's threads: Application, ModalityState, ProgressManager. */
object PlatformThreads : UiThreads {
    private val app get() = ApplicationManager.getApplication()

    override val isUiThread: Boolean get() = app.isDispatchThread

    override fun pooled(task: () -> Unit) {
        app.executeOnPooledThread { task() }
    }

    override fun modalityOf(component: Component): Any = ModalityState.stateForComponent(component)

    override val anyModality: Any get() = ModalityState.any()

    override fun later(modality: Any, task: () -> Unit) = app.invokeLater({ task() }, modality as ModalityState)

    override fun <T> inBackground(project: Project?, title: String, task: () -> T, then: (Result<T>) -> Unit) {
        val outcome = AtomicReference<Result<T>>()
        ProgressManager.getInstance().run(object : Task.Modal(project, title, true) {
            override fun run(indicator: ProgressIndicator) {
                indicator.isIndeterminate = true
                outcome.set(runCatching(task))
            }

            // onSuccess/onThrowable/onCancel run on the UI thread, in the progress's modality.
            override fun onSuccess() = then(outcome.get() ?: Result.failure(IllegalStateException("no outcome")))

            override fun onThrowable(error: Throwable) = then(Result.failure(error))
        })
    }

    override fun <T> underProgress(project: Project?, title: String, task: () -> T): Result<T> {
        val outcome = AtomicReference<Result<T>>()
        ProgressManager.getInstance().runProcessWithProgressSynchronously({ outcome.set(runCatching(task)) }, title, false, project)
        return outcome.get() ?: Result.failure(IllegalStateException("$title did not finish"))
    }
}
