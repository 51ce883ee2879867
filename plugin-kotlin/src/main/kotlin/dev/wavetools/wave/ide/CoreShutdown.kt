package dev.wavetools.wave.ide

import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManagerListener
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.StopReport

/**
 * Stopping a project's core when the project closes. The graceful stop (the core stops its process
 * trees; up to seconds for a wedged one) runs when the project starts closing, on a pooled thread
 * under a modal progress; the service's dispose, which the platform runs on the UI thread, only
 * kills what is still there and never waits.
 */
class CoreShutdown(private val threads: UiThreads, private val supervisor: CoreSupervisor, private val title: String) {
    fun beforeClose(project: Project?): StopReport? {
        if (supervisor.state == CoreState.Stopped) return null
        return threads.underProgress(project, title) { supervisor.stop() }.getOrNull()
    }

    fun dispose(): List<Long> = supervisor.closeNow()
}

/** plugin.xml `<applicationListeners>`: each closing project's core stops before the project's services are disposed. */
class WaveProjectCloseListener : ProjectManagerListener {
    override fun projectClosing(project: Project) {
        WaveProjectService.getInstanceIfCreated(project)?.projectClosing()
    }
}
