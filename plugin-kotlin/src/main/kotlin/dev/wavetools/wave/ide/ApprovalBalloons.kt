package dev.wavetools.wave.ide

import com.intellij.notification.Notification
import com.intellij.notification.NotificationAction
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.text.StringUtil
import com.intellij.openapi.wm.ToolWindowManager
import dev.wavetools.wave.bridge.AttachedAgents
import dev.wavetools.wave.bridge.PermissionAnswer
import dev.wavetools.wave.bridge.PermissionBridge
import dev.wavetools.wave.bridge.PermissionQuestion
import dev.wavetools.wave.ui.WaveBundle

/**
 * A permission question while the Wave tool window is hidden (or was never opened) would wait
 * unseen until its timeout: it raises a sticky balloon with the command, Allow Once, Deny and Show
 * in Wave Tools. The balloon goes as soon as the question is answered anywhere or withdrawn.
 */
class ApprovalBalloons(private val project: Project, permissions: PermissionBridge, private val agents: AttachedAgents) : AutoCloseable {
    private val subscription = permissions.addQuestionListener(::asked)

    private fun asked(question: PermissionQuestion) {
        val app = ApplicationManager.getApplication()
        app.invokeLater {
            if (project.isDisposed || !question.isOpen) return@invokeLater
            val window = ToolWindowManager.getInstance(project).getToolWindow(RestartCoreAction.TOOL_WINDOW_ID)
            // The card is on screen: the person sees it there.
            if (window != null && window.isVisible) return@invokeLater
            val p = question.prompt
            val who = agents.agent(p.sessionId)?.title ?: WaveBundle.message("balloon.agent.fallback")
            val content = buildString {
                append(
                    if (p.command != null) {
                        WaveBundle.message("balloon.approval.command", StringUtil.escapeXmlEntities(p.command!!.let { if (it.length > 300) it.take(299) + "…" else it }), StringUtil.escapeXmlEntities(p.directory))
                    } else {
                        WaveBundle.message("balloon.approval.write", StringUtil.escapeXmlEntities(p.path ?: ""))
                    },
                )
                p.warnings.firstOrNull()?.let { append("<br>").append(StringUtil.escapeXmlEntities(it.message)) }
            }
            val notification: Notification = NotificationGroupManager.getInstance().getNotificationGroup(GROUP)
                .createNotification(WaveBundle.message("balloon.approval.title", StringUtil.escapeXmlEntities(who)), content, NotificationType.WARNING)
            notification.addAction(NotificationAction.createSimple(WaveBundle.message("balloon.allowOnce.action")) {
                question.answer(PermissionAnswer.allowOnce())
                notification.expire()
            })
            notification.addAction(NotificationAction.createSimple(WaveBundle.message("balloon.deny.action")) {
                question.answer(PermissionAnswer.deny(null))
                notification.expire()
            })
            notification.addAction(NotificationAction.createSimple(WaveBundle.message("balloon.show.action")) {
                window?.show()
                notification.expire()
            })
            question.whenSettled { app.invokeLater { notification.expire() } }
            notification.notify(project)
        }
    }

    override fun close() = subscription.close()

    companion object {
        const val GROUP = "Wave Tools Approvals"
    }
}
