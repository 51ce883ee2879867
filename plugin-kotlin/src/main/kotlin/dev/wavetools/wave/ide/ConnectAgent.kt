package dev.wavetools.wave.ide

import com.intellij.diff.DiffContentFactory
import com.intellij.diff.DiffManager
import com.intellij.diff.requests.SimpleDiffRequest
import com.intellij.icons.AllIcons
import com.intellij.openapi.actionSystem.ActionUpdateThread
import com.intellij.openapi.actionSystem.AnActionEvent
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.fileTypes.FileTypeManager
import com.intellij.openapi.ide.CopyPasteManager
import com.intellij.openapi.project.DumbAwareAction
import com.intellij.openapi.project.Project
import com.intellij.openapi.ui.DialogWrapper
import com.intellij.openapi.ui.Messages
import com.intellij.util.EnvironmentUtil
import dev.wavetools.wave.bridge.AgentConnect
import dev.wavetools.wave.bridge.AgentKind
import dev.wavetools.wave.bridge.ConfigEditException
import dev.wavetools.wave.bridge.ConnectException
import dev.wavetools.wave.bridge.ConnectStep
import dev.wavetools.wave.bridge.CoreLaunchException
import dev.wavetools.wave.ui.ApplyOutcome
import dev.wavetools.wave.ui.ConnectAgentPanel
import dev.wavetools.wave.ui.ConnectHost
import dev.wavetools.wave.ui.WaveBundle
import java.awt.datatransfer.StringSelection
import java.nio.file.Paths
import javax.swing.Action
import javax.swing.JComponent

/** Connect an Agent…: in the tool window's title bar and the Tools menu. */
class ConnectAgentAction : DumbAwareAction(
    WaveBundle.message("action.WaveTools.ConnectAgent.text"), WaveBundle.message("action.WaveTools.ConnectAgent.description"), AllIcons.General.Add,
) {
    override fun getActionUpdateThread() = ActionUpdateThread.BGT

    override fun update(e: AnActionEvent) {
        e.presentation.isEnabled = e.project != null
    }

    override fun actionPerformed(e: AnActionEvent) {
        ConnectAgentDialog.show(e.project ?: return)
    }

    companion object {
        const val ID = "WaveTools.ConnectAgent"
    }
}

/** The dialog around [ConnectAgentPanel]; its Apply shows each change in the IDE's diff viewer before making it. */
class ConnectAgentDialog private constructor(project: Project, connect: AgentConnect) : DialogWrapper(project, true) {
    private val panel = ConnectAgentPanel(connect, IdeConnectHost(project, connect))

    init {
        title = WaveBundle.message("connect.dialog.title")
        setOKButtonText(WaveBundle.message("connect.close.button"))
        init()
    }

    override fun createCenterPanel(): JComponent = panel

    override fun createActions(): Array<Action> = arrayOf(okAction)

    companion object {
        fun show(project: Project) {
            val attach = try {
                WaveProjectService.getInstance(project).attachCommand()
            } catch (e: CoreLaunchException) {
                Messages.showErrorDialog(project, e.message ?: "", WaveBundle.message("connect.dialog.title"))
                return
            }
            val connect = AgentConnect(attach, Paths.get(System.getProperty("user.home")), EnvironmentUtil.getEnvironmentMap())
            ConnectAgentDialog(project, connect).show()
        }
    }
}

/**
 * Copy through the IDE's clipboard; Apply plans off the UI thread (it reads the agent's files),
 * opens a diff of every file it would change, asks once, then applies off the UI thread.
 */
private class IdeConnectHost(private val project: Project, private val connect: AgentConnect) : ConnectHost {
    override fun copy(text: String) = CopyPasteManager.getInstance().setContents(StringSelection(text))

    override fun apply(kind: AgentKind, turnOffOwnTools: Boolean, done: (ApplyOutcome) -> Unit) {
        val app = ApplicationManager.getApplication()
        app.executeOnPooledThread {
            val steps = try {
                connect.plan(kind, turnOffOwnTools)
            } catch (e: Exception) {
                app.invokeLater { done(ApplyOutcome.Failed(messageOf(e))) }
                return@executeOnPooledThread
            }
            app.invokeLater {
                if (project.isDisposed) return@invokeLater
                if (!review(kind, steps)) {
                    done(ApplyOutcome.Cancelled)
                    return@invokeLater
                }
                app.executeOnPooledThread {
                    val outcome = try {
                        connect.apply(steps)
                        ApplyOutcome.Applied
                    } catch (e: Exception) {
                        ApplyOutcome.Failed(messageOf(e))
                    }
                    app.invokeLater { done(outcome) }
                }
            }
        }
    }

    /** Each file's diff in the IDE's viewer, then one question listing every step. */
    private fun review(kind: AgentKind, steps: List<ConnectStep>): Boolean {
        val factory = DiffContentFactory.getInstance()
        for (step in steps.filterIsInstance<ConnectStep.EditFile>()) {
            val name = step.path.fileName.toString()
            val type = FileTypeManager.getInstance().getFileTypeByFileName(name)
            DiffManager.getInstance().showDiff(
                project,
                SimpleDiffRequest(
                    WaveBundle.message("connect.review.edit", step.path.toString()),
                    factory.create(project, step.before ?: "", type),
                    factory.create(project, step.after, type),
                    WaveBundle.message("diff.before"),
                    WaveBundle.message("diff.after"),
                ),
            )
        }
        val lines = steps.joinToString("\n") { step ->
            when (step) {
                is ConnectStep.RunCommand -> "• ${step.description}\n   ${WaveBundle.message("connect.review.run", connect.commandLine(step.argv))}"
                is ConnectStep.EditFile -> "• ${step.description}\n   ${WaveBundle.message("connect.review.edit", step.path.toString())}"
            }
        }
        val agent = WaveBundle.message("connect.tab.${ConnectAgentPanel.keyOf(kind)}")
        return Messages.showOkCancelDialog(
            project,
            lines,
            WaveBundle.message("connect.review.title", agent),
            WaveBundle.message("connect.review.confirm.button"),
            WaveBundle.message("connect.review.cancel.button"),
            Messages.getQuestionIcon(),
        ) == Messages.OK
    }

    private fun messageOf(e: Exception): String = when (e) {
        is ConfigEditException, is ConnectException -> e.message ?: e.toString()
        else -> "${e.javaClass.simpleName}: ${e.message}"
    }
}
