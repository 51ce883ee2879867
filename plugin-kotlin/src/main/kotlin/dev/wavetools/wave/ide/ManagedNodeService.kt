package dev.wavetools.wave.ide

import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.application.PathManager
import com.intellij.openapi.components.Service
import com.intellij.openapi.components.service
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.progress.ProcessCanceledException
import com.intellij.openapi.progress.ProgressIndicator
import com.intellij.openapi.progress.ProgressManager
import com.intellij.openapi.progress.Task
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManager
import com.intellij.openapi.util.text.StringUtil
import com.intellij.util.io.HttpRequests
import dev.wavetools.wave.bridge.BridgeLog
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.FailureKind
import dev.wavetools.wave.bridge.HttpDownloader
import dev.wavetools.wave.bridge.InstallCancelledException
import dev.wavetools.wave.bridge.InstallProgress
import dev.wavetools.wave.bridge.ManagedNodeRuntime
import dev.wavetools.wave.bridge.NodeLocator
import dev.wavetools.wave.bridge.OsFamily
import dev.wavetools.wave.bridge.PinnedNode
import dev.wavetools.wave.ui.WaveBundle
import java.io.InputStream
import java.nio.file.Path
import java.nio.file.Paths
import java.util.Locale
import java.util.concurrent.atomic.AtomicBoolean

/** Downloads go through the IDE's HTTP client, so its proxy settings (and their credentials) apply. */
object IdeHttpDownloader : HttpDownloader {
    override fun <T> get(url: String, read: (body: InputStream, contentLength: Long) -> T): T =
        HttpRequests.request(url)
            .productNameAsUserAgent()
            // The archive's bytes are what the pinned SHA-256 is of: no transparent decompression.
            .gzip(false)
            .connect { request -> read(request.inputStream, request.connection.contentLengthLong) }
}

/**
 * The Node.js runtime Wave Tools downloads when no suitable one is found, kept in the IDE's system
 * folder (`<system>/wave-tools/node/node-v22.x.y-<platform>/`) and shared by every project.
 */
@Service(Service.Level.APP)
class ManagedNodeService {
    private val log = Logger.getInstance(ManagedNodeService::class.java)
    private val downloading = AtomicBoolean(false)

    /** Null on a machine the plugin pins no archive for (32-bit, RISC-V, ...). */
    val runtime: ManagedNodeRuntime? by lazy {
        PinnedNode.forPlatform(OsFamily.current(), System.getProperty("os.arch") ?: "")?.let { distribution ->
            ManagedNodeRuntime(
                root = Paths.get(PathManager.getSystemPath(), "wave-tools", "node"),
                distribution = distribution,
                http = IdeHttpDownloader,
                log = BridgeLog { level, message, error -> if (level >= BridgeLog.Level.WARN) log.warn(message, error) else log.info(message) },
            )
        }
    }

    fun installedNode(): Path? = runtime?.installed()

    /** Whether "Download Node.js for Wave Tools" can help: there is an archive for this machine and it is not installed yet. */
    fun canDownload(): Boolean = runtime != null && installedNode() == null

    /**
     * Downloads and installs the runtime in the background with a cancellable progress indicator,
     * then restarts every open project's core that is waiting for a Node.js. A second call while a
     * download runs does nothing.
     */
    fun download(project: Project?) {
        val runtime = runtime
        if (runtime == null) {
            val text = WaveBundle.message("managedNode.unavailable.text", System.getProperty("os.name") ?: "?", System.getProperty("os.arch") ?: "?", NodeLocator.MINIMUM_MAJOR)
            notify(project, text, NotificationType.WARNING)
            return
        }
        if (!downloading.compareAndSet(false, true)) return
        val title = WaveBundle.message("managedNode.progress.title", PinnedNode.VERSION)
        ProgressManager.getInstance().run(object : Task.Backgroundable(project, title, true) {
            override fun run(indicator: ProgressIndicator) {
                indicator.isIndeterminate = false
                try {
                    runtime.install(IndicatorProgress(indicator))
                } catch (e: InstallCancelledException) {
                    throw ProcessCanceledException(e)
                }
            }

            override fun onSuccess() {
                notify(project, WaveBundle.message("managedNode.installed.text", PinnedNode.VERSION, runtime.installDir), NotificationType.INFORMATION)
                restartWaitingCores()
            }

            override fun onCancel() {
                notify(project, WaveBundle.message("managedNode.cancelled.text"), NotificationType.INFORMATION)
            }

            override fun onThrowable(error: Throwable) {
                log.warn("the Node.js download failed", error)
                notify(project, error.message ?: WaveBundle.message("managedNode.failed.text"), NotificationType.ERROR)
            }

            override fun onFinished() {
                downloading.set(false)
            }
        })
    }

    private fun restartWaitingCores() {
        for (p in ProjectManager.getInstance().openProjects) {
            val service = WaveProjectService.getInstanceIfCreated(p) ?: continue
            val state = service.supervisor.state
            // Only the cores that failed for want of a Node.js; others failed for their own reasons.
            if (state is CoreState.Failed && state.kind == FailureKind.NODE_NOT_FOUND) service.supervisor.restartAsync()
        }
    }

    private fun notify(project: Project?, text: String, type: NotificationType) {
        NotificationGroupManager.getInstance().getNotificationGroup(WaveProjectService.NOTIFICATION_GROUP)
            .createNotification(WaveBundle.message("notification.title"), StringUtil.escapeXmlEntities(text), type)
            .notify(project)
    }

    private class IndicatorProgress(private val indicator: ProgressIndicator) : InstallProgress {
        override fun step(text: String) {
            indicator.text = text
            indicator.text2 = ""
        }

        override fun bytes(done: Long, total: Long) {
            if (total > 0) {
                indicator.isIndeterminate = false
                indicator.fraction = done.toDouble() / total
                indicator.text2 = WaveBundle.message("managedNode.progress.megabytes", megabytes(done), megabytes(total))
            } else {
                indicator.isIndeterminate = true
                indicator.text2 = WaveBundle.message("managedNode.progress.megabytesSoFar", megabytes(done))
            }
        }

        override val isCancelled: Boolean get() = indicator.isCanceled

        private fun megabytes(bytes: Long) = String.format(Locale.ROOT, "%.1f", bytes / 1_048_576.0)
    }

    companion object {
        fun getInstance(): ManagedNodeService = service()
    }
}
