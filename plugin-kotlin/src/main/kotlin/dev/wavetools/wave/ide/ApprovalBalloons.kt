package dev.wavetools.wave.ide

import com.intellij.notification.Notification
import com.intellij.notification.NotificationAction
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.text.StringUtil
import com.intellij.openapi.wm.ToolWindowManager
import com.intellij.openapi.wm.WindowManager
import dev.wavetools.wave.ui.WaveController
import java.awt.Taskbar
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
        // Any modality: a question must not wait behind Settings or another dialog until its timeout.
        PlatformThreads.later(PlatformThreads.anyModality) {
            if (project.isDisposed || !question.isOpen) return@later
            val window = ToolWindowManager.getInstance(project).getToolWindow(RestartCoreAction.TOOL_WINDOW_ID)
            val frameActive = app.isActive
            // The IDE is not in front (the person is in a terminal, a browser): ask the OS for attention.
            if (!frameActive) requestAttention()
            // The card is on screen, in the tab that shows, in the IDE the person looks at: they see it there.
            if (frameActive && window != null && window.isVisible && ApprovalVisibility.cardShown(question.prompt.sessionId, WaveProjectService.getInstanceIfCreated(project)?.controller)) return@later
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
            question.whenSettled { PlatformThreads.later(PlatformThreads.anyModality) { notification.expire() } }
            notification.notify(project)
        }
    }

    /** The taskbar or dock entry flashes or bounces, where the desktop supports it. */
    private fun requestAttention() {
        val frame = WindowManager.getInstance().getFrame(project) ?: return
        try {
            if (Taskbar.isTaskbarSupported() && Taskbar.getTaskbar().isSupported(Taskbar.Feature.USER_ATTENTION_WINDOW)) {
                Taskbar.getTaskbar().requestWindowUserAttention(frame)
            }
        } catch (e: Exception) {
            // A desktop without a taskbar: the balloon and the tab's count remain.
        }
    }

    override fun close() = subscription.close()

    companion object {
        const val GROUP = "Wave Tools Approvals"
    }
}

/** Whether an approval card is where the person looks: its session's tab is the one showing. */
object ApprovalVisibility {
    fun cardShown(sessionId: String?, controller: WaveController?): Boolean =
        controller?.panel?.sessions?.model?.isSelected(sessionId) ?: false
}
