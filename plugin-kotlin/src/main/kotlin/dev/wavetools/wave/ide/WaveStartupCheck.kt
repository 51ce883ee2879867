package dev.wavetools.wave.ide

import com.intellij.notification.NotificationAction
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.project.Project
import com.intellij.openapi.startup.ProjectActivity
import com.intellij.openapi.util.text.StringUtil
import com.intellij.util.EnvironmentUtil
import dev.wavetools.wave.bridge.AgentConnect
import dev.wavetools.wave.bridge.AgentEntries
import dev.wavetools.wave.bridge.CoreLaunchException
import dev.wavetools.wave.ui.ConnectAgentPanel
import dev.wavetools.wave.ui.WaveBundle
import java.nio.file.Paths
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Once per IDE start, off the UI thread (post-startup activities run in the background): registers
 * this installation with Wave's launcher, so the agents set up by any IDE run the newest core, and
 * checks the agent entries Connect an Agent wrote, offering to repair the stale ones.
 */
class WaveStartupCheck : ProjectActivity {
    override suspend fun execute(project: Project) = withContext(Dispatchers.IO) { check(project) }

    private fun check(project: Project) {
        if (!done.compareAndSet(false, true)) return
        val attach = try {
            WaveProjectService.getInstance(project).launcherAttachCommand()
        } catch (e: CoreLaunchException) {
            // No Node.js yet, no project directory: the tool window says so when it opens.
            log.info("Wave's launcher was not updated: ${e.message}")
            done.set(false)
            return
        } catch (e: Exception) {
            log.warn("Wave's launcher could not be updated", e)
            return
        }
        val home = Paths.get(System.getProperty("user.home"))
        val environment = EnvironmentUtil.getEnvironmentMap()
        val stale = AgentEntries(AgentConnect(attach, home, environment), home, environment).stale(Paths.get(attach.launcher!!))
        for (s in stale) {
            val agent = WaveBundle.message("connect.tab.${ConnectAgentPanel.keyOf(s.entry.kind)}")
            val notification = NotificationGroupManager.getInstance().getNotificationGroup(WaveProjectService.NOTIFICATION_GROUP)
                .createNotification(
                    WaveBundle.message("connect.stale.title", agent),
                    StringUtil.escapeXmlEntities(WaveBundle.message("connect.stale.text", agent, s.entry.file.toString(), s.reason)),
                    NotificationType.WARNING,
                )
            notification.addAction(NotificationAction.createSimple(WaveBundle.message("connect.stale.repair.action")) {
                notification.expire()
                ConnectAgentDialog.show(project)
            })
            notification.notify(project)
        }
    }

    companion object {
        private val log = Logger.getInstance(WaveStartupCheck::class.java)
        private val done = AtomicBoolean(false)
    }
}
