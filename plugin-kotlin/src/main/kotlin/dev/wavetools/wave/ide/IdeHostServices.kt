package dev.wavetools.wave.ide

import com.intellij.ide.BrowserUtil
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.fileEditor.OpenFileDescriptor
import com.intellij.openapi.options.ShowSettingsUtil
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.text.StringUtil
import com.intellij.openapi.vfs.LocalFileSystem
import dev.wavetools.wave.ui.HostServices
import java.nio.file.Paths

/** What the Swing panel asks of the IDE: open files at a line, settings, browser, the UI thread. */
class IdeHostServices(private val project: Project) : HostServices {
    override fun openFile(path: String, line: Int?) {
        ApplicationManager.getApplication().executeOnPooledThread {
            // The core may have just written the file: refresh the VFS before opening it.
            val file = LocalFileSystem.getInstance().refreshAndFindFileByNioFile(Paths.get(path))
            ApplicationManager.getApplication().invokeLater {
                if (project.isDisposed) return@invokeLater
                if (file == null) {
                    NotificationGroupManager.getInstance().getNotificationGroup(WaveProjectService.NOTIFICATION_GROUP)
                        .createNotification("Wave Tools", StringUtil.escapeXmlEntities("$path does not exist (any more)."), NotificationType.WARNING)
                        .notify(project)
                    return@invokeLater
                }
                // OpenFileDescriptor lines are 0-based; the tool window shows 1-based ones.
                OpenFileDescriptor(project, file, ((line ?: 1) - 1).coerceAtLeast(0), 0).navigate(true)
            }
        }
    }

    override fun openSettings() = ShowSettingsUtil.getInstance().showSettingsDialog(project, WaveConfigurable::class.java)

    override fun browse(url: String) = BrowserUtil.browse(url)

    /** The managed runtime: downloaded in the background, then the waiting cores restart. */
    override fun downloadNode() = ManagedNodeService.getInstance().download(project)

    override fun invokeLater(task: () -> Unit) = ApplicationManager.getApplication().invokeLater { task() }
}
