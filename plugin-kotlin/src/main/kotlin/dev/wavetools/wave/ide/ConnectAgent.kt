package dev.wavetools.wave.ide

import com.intellij.diff.DiffContentFactory
import com.intellij.diff.DiffManager
import com.intellij.diff.requests.SimpleDiffRequest
import com.intellij.icons.AllIcons
import com.intellij.openapi.actionSystem.ActionUpdateThread
import com.intellij.openapi.actionSystem.AnActionEvent
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
import java.awt.Component
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
    private val host = IdeConnectHost(project, connect)
    private val panel = ConnectAgentPanel(connect, host)

    init {
        host.anchor = panel
        title = WaveBundle.message("connect.dialog.title")
        setOKButtonText(WaveBundle.message("connect.close.button"))
        init()
    }

    override fun createCenterPanel(): JComponent = panel

    override fun createActions(): Array<Action> = arrayOf(okAction)

    companion object {
        /**
         * Opens the dialog once what it shows is known: the attach command (it may locate Node.js,
         * which runs `node --version`), the IDE's environment (it may wait for the login shell) and
         * the agents' CLIs on PATH — all looked up on a pooled thread under a progress, never on the
         * UI thread.
         */
        fun show(project: Project) = ConnectOpener(PlatformThreads).open(
            project,
            prepare = {
                val attach = WaveProjectService.getInstance(project).launcherAttachCommand()
                AgentConnect(attach, Paths.get(System.getProperty("user.home")), EnvironmentUtil.getEnvironmentMap()).prepare()
            },
            show = { connect -> ConnectAgentDialog(project, connect).show() },
            failed = { message -> Messages.showErrorDialog(project, message, WaveBundle.message("connect.dialog.title")) },
        )
    }
}

/** Connect an Agent's opening: the slow look-ups off the UI thread, then the dialog on it. */
class ConnectOpener(private val threads: UiThreads) {
    fun open(project: Project?, prepare: () -> AgentConnect, show: (AgentConnect) -> Unit, failed: (String) -> Unit) {
        threads.inBackground(project, WaveBundle.message("connect.preparing.progress"), prepare) { outcome ->
            outcome.fold(
                onSuccess = show,
                onFailure = { e ->
                    when (e) {
                        // No Node.js, no project directory: the fix is in the message.
                        is CoreLaunchException -> failed(e.message ?: e.toString())
                        else -> failed("${e.javaClass.simpleName}: ${e.message}")
                    }
                },
            )
        }
    }
}

/**
 * Copy through the IDE's clipboard; Apply plans off the UI thread (it reads the agent's files),
 * opens a diff of every file it would change, asks once, then applies off the UI thread.
 */
private class IdeConnectHost(private val project: Project, private val connect: AgentConnect) : ConnectHost {
    /** The dialog's panel: what Apply posts back to must run in the dialog's modality, not wait for it to close. */
    lateinit var anchor: JComponent

    private val applier = ConnectApplier(PlatformThreads, connect, isDisposed = { project.isDisposed }) { kind, steps -> review(kind, steps) }

    override fun copy(text: String) = CopyPasteManager.getInstance().setContents(StringSelection(text))

    override fun apply(kind: AgentKind, turnOffOwnTools: Boolean, done: (ApplyOutcome) -> Unit) = applier.apply(anchor, kind, turnOffOwnTools, done)

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
        return Messages.showOkCancelDialog(
            project,
            ConnectApplier.describe(connect, steps),
            WaveBundle.message("connect.review.title", WaveBundle.message("connect.tab.${ConnectAgentPanel.keyOf(kind)}")),
            WaveBundle.message("connect.review.confirm.button"),
            WaveBundle.message("connect.review.cancel.button"),
            Messages.getQuestionIcon(),
        ) == Messages.OK
    }
}

/**
 * Apply's threading: plan on a pooled thread, review on the UI thread in the dialog's modality (so it
 * happens while the dialog is open, not after it closed), apply on a pooled thread, report back in the
 * same modality.
 */
class ConnectApplier(
    private val threads: UiThreads,
    private val connect: AgentConnect,
    private val isDisposed: () -> Boolean,
    private val review: (AgentKind, List<ConnectStep>) -> Boolean,
) {
    fun apply(anchor: Component, kind: AgentKind, turnOffOwnTools: Boolean, done: (ApplyOutcome) -> Unit) {
        val modality = threads.modalityOf(anchor)
        threads.pooled {
            val steps = try {
                connect.plan(kind, turnOffOwnTools)
            } catch (e: Exception) {
                threads.later(modality) { done(ApplyOutcome.Failed(messageOf(e))) }
                return@pooled
            }
            threads.later(modality) {
                if (isDisposed()) return@later
                if (!review(kind, steps)) {
                    done(ApplyOutcome.Cancelled)
                    return@later
                }
                threads.pooled {
                    val outcome = try {
                        connect.apply(steps)
                        ApplyOutcome.Applied
                    } catch (e: Exception) {
                        ApplyOutcome.Failed(messageOf(e))
                    }
                    threads.later(modality) { if (!isDisposed()) done(outcome) }
                }
            }
        }
    }

    companion object {
        fun describe(connect: AgentConnect, steps: List<ConnectStep>): String = steps.joinToString("\n") { step ->
            when (step) {
                is ConnectStep.RunCommand -> "• ${step.description}\n   ${WaveBundle.message("connect.review.run", connect.commandLine(step.argv))}"
                is ConnectStep.EditFile -> "• ${step.description}\n   ${WaveBundle.message("connect.review.edit", step.path.toString())}"
            }
        }

        fun messageOf(e: Exception): String = when (e) {
            is ConfigEditException, is ConnectException -> e.message ?: e.toString()
            else -> "${e.javaClass.simpleName}: ${e.message}"
        }
    }
}
