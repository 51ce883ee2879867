package dev.wavetools.wave.ide

import com.intellij.diff.DiffContentFactory
import com.intellij.diff.DiffManager
import com.intellij.diff.requests.SimpleDiffRequest
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.fileEditor.FileEditorManager
import com.intellij.openapi.fileEditor.OpenFileDescriptor
import com.intellij.openapi.fileTypes.FileTypeManager
import com.intellij.openapi.options.ShowSettingsUtil
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.text.StringUtil
import com.intellij.openapi.vfs.LocalFileSystem
import com.intellij.testFramework.LightVirtualFile
import dev.wavetools.wave.bridge.DiffModel
import dev.wavetools.wave.bridge.DiffTexts
import dev.wavetools.wave.ui.HostServices
import dev.wavetools.wave.ui.LinkAction
import dev.wavetools.wave.ui.WaveBundle
import java.nio.file.Files
import java.nio.file.Paths

/** What the Swing panel asks of the IDE: files at a line, the diff viewer, settings, help, the Node.js download, the UI thread. */
class IdeHostServices(private val project: Project) : HostServices {
    override fun openFile(path: String, line: Int?) {
        ApplicationManager.getApplication().executeOnPooledThread {
            // The core may have just written the file: refresh the VFS before opening it.
            val file = LocalFileSystem.getInstance().refreshAndFindFileByNioFile(Paths.get(path))
            ApplicationManager.getApplication().invokeLater {
                if (project.isDisposed) return@invokeLater
                if (file == null) {
                    notify(WaveBundle.message("notification.file.missing.text", path))
                    return@invokeLater
                }
                // OpenFileDescriptor lines are 0-based; the tool window shows 1-based ones.
                OpenFileDescriptor(project, file, ((line ?: 1) - 1).coerceAtLeast(0), 0).navigate(true)
            }
        }
    }

    /**
     * The IDE's diff viewer on an Edit or Write: the file as it is now against the file as it was
     * (rebuilt from the core's hunks, DiffTexts), syntax-highlighted by the file's type. Reading
     * the file happens off the UI thread.
     */
    override fun showDiff(path: String, model: DiffModel) {
        ApplicationManager.getApplication().executeOnPooledThread {
            val current = try {
                Files.readString(Paths.get(path))
            } catch (e: Exception) {
                null
            }
            val texts = DiffTexts.of(model, current)
            ApplicationManager.getApplication().invokeLater {
                if (project.isDisposed) return@invokeLater
                val name = Paths.get(path).fileName?.toString() ?: path
                val type = FileTypeManager.getInstance().getFileTypeByFileName(name)
                val factory = DiffContentFactory.getInstance()
                val title = WaveBundle.message(if (texts.wholeFile) "diff.title" else "diff.title.regions", name)
                val request = SimpleDiffRequest(
                    title,
                    factory.create(project, texts.before, type),
                    factory.create(project, texts.after, type),
                    WaveBundle.message("diff.before"),
                    WaveBundle.message("diff.after"),
                )
                DiffManager.getInstance().showDiff(project, request)
            }
        }
    }

    override fun openSettings() = ShowSettingsUtil.getInstance().showSettingsDialog(project, WaveConfigurable::class.java)

    /** The plugin's help page, bundled (it works offline), opened read-only in an editor tab. */
    override val showHelp: (() -> Unit) = {
        val text = IdeHostServices::class.java.getResource(HELP_RESOURCE)?.readText()
        if (text == null) {
            notify(WaveBundle.message("notification.help.missing.text"))
        } else {
            val file = LightVirtualFile(HELP_FILE_NAME, FileTypeManager.getInstance().getFileTypeByFileName(HELP_FILE_NAME), text)
            file.isWritable = false
            FileEditorManager.getInstance(project).openFile(file, true)
        }
    }

    /** "Show All" on an output the core kept no file of: the text, read-only, in an editor tab. */
    override fun showText(title: String, text: String) {
        val file = LightVirtualFile("$title.log", FileTypeManager.getInstance().getFileTypeByFileName("$title.log"), text)
        file.isWritable = false
        FileEditorManager.getInstance(project).openFile(file, true)
    }

    /**
     * The managed runtime: downloaded in the background, then the waiting cores restart. Null (no
     * link) where the plugin pins no archive for this machine, or the runtime is installed already.
     */
    override val downloadNode: (() -> Unit)?
        get() = if (ManagedNodeService.getInstance().canDownload()) ({ ManagedNodeService.getInstance().download(project) }) else null

    /** The empty state's "Connect an Agent" (the seam the tool window leaves for the IDE's links). */
    override fun emptyStateActions() = listOf(LinkAction(WaveBundle.message("connect.link")) { ConnectAgentDialog.show(project) })

    /**
     * The controller's updates of its own cards and tabs: with any modality, so a card or an approval
     * reaches the tool window while Settings or another dialog is open (pure Swing, no PSI or VFS).
     */
    override fun invokeLater(task: () -> Unit) = PlatformThreads.later(PlatformThreads.anyModality, task)

    private fun notify(text: String) {
        NotificationGroupManager.getInstance().getNotificationGroup(WaveProjectService.NOTIFICATION_GROUP)
            .createNotification(WaveBundle.message("notification.title"), StringUtil.escapeXmlEntities(text), NotificationType.WARNING)
            .notify(project)
    }

    companion object {
        const val HELP_RESOURCE = "/help/wave-tools.md"
        const val HELP_FILE_NAME = "Wave Tools Help.md"
    }
}
