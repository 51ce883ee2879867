package dev.wavetools.wave.ide

import com.intellij.openapi.fileChooser.FileChooser
import com.intellij.openapi.fileChooser.FileChooserDescriptor
import com.intellij.openapi.options.BoundConfigurable
import com.intellij.openapi.options.ConfigurationException
import com.intellij.openapi.project.Project
import com.intellij.openapi.ui.DialogPanel
import com.intellij.openapi.ui.TextFieldWithBrowseButton
import com.intellij.openapi.ui.ValidationInfo
import com.intellij.openapi.vfs.LocalFileSystem
import com.intellij.ui.layout.ValidationInfoBuilder
import javax.swing.JTextField
import com.intellij.ui.dsl.builder.COLUMNS_LARGE
import com.intellij.ui.dsl.builder.Panel
import com.intellij.ui.dsl.builder.bindIntText
import com.intellij.ui.dsl.builder.bindItem
import com.intellij.ui.dsl.builder.bindText
import com.intellij.ui.dsl.builder.columns
import com.intellij.ui.dsl.builder.panel
import dev.wavetools.wave.bridge.NodeLocator
import dev.wavetools.wave.bridge.PermissionModes
import dev.wavetools.wave.bridge.PinnedNode
import dev.wavetools.wave.bridge.PermissionSettingsForm
import dev.wavetools.wave.bridge.PermissionSettingsApplier
import dev.wavetools.wave.ui.SessionFeed
import dev.wavetools.wave.ui.SettingsChecks
import dev.wavetools.wave.ui.WaveBundle

/**
 * Settings | Tools | Wave Tools. The core reads the paths and directories at start, so changing them
 * restarts it; the permission mode and rules go to the running core at once (and are kept for the project).
 */
class WaveConfigurable(private val project: Project) : BoundConfigurable(WaveBundle.message("settings.title")) {
    private val permissionStore = WaveProjectSettings.getInstance(project).permissionStore
    private val permissionForm = PermissionSettingsForm(permissionStore.load())

    /** A mode in the combo box, shown by its label. */
    private data class ModeItem(val mode: String) {
        override fun toString(): String = when (mode) {
            PermissionModes.ASK -> WaveBundle.message("settings.mode.ask")
            PermissionModes.ALLOW_ALL -> WaveBundle.message("settings.mode.allowAll")
            PermissionModes.DENY_ALL -> WaveBundle.message("settings.mode.denyAll")
            else -> mode
        }
    }

    // Made with the page, on the UI thread (the Settings dialog may construct configurables elsewhere).
    private val nodeField by lazy { browseField(WaveBundle.message("settings.node.browse.title")) }
    private val gitBashField by lazy { browseField(WaveBundle.message("settings.gitBash.browse.title")) }
    private var shellField: JTextField? = null

    override fun createPanel(): DialogPanel {
        val s = WaveSettings.getInstance().state
        val p = WaveProjectSettings.getInstance(project).state
        return panel {
            pathRow(
                WaveBundle.message("settings.node.label"), nodeField, { s.nodePath }, { s.nodePath = it },
                WaveBundle.message("settings.node.comment", NodeLocator.MINIMUM_MAJOR, PinnedNode.VERSION),
            )
            row(WaveBundle.message("settings.nodeInUse.label")) {
                label(WaveProjectService.getInstanceIfCreated(project)?.nodeInUse?.describe() ?: WaveBundle.message("settings.nodeInUse.notStarted"))
            }
            managedNodeRow()
            row(WaveBundle.message("settings.shell.label")) {
                shellField = textField().columns(COLUMNS_LARGE)
                    .bindText({ s.waveShell ?: "" }, { s.waveShell = it.trim() })
                    .validationOnInput { problem(SettingsChecks.shell(it.text)) }
                    .validationOnApply { problem(SettingsChecks.shell(it.text)) }
                    .comment(WaveBundle.message("settings.shell.comment"))
                    .component
            }
            pathRow(WaveBundle.message("settings.gitBash.label"), gitBashField, { s.gitBashPath }, { s.gitBashPath = it }, WaveBundle.message("settings.gitBash.comment"))
            row(WaveBundle.message("settings.timeout.label")) {
                intTextField(0..86_400)
                    .bindIntText({ s.defaultTimeoutSeconds }, { s.defaultTimeoutSeconds = it })
                    .comment(WaveBundle.message("settings.timeout.comment"))
            }
            row(WaveBundle.message("settings.maxCards.label")) {
                intTextField(WaveSettings.MAX_CARDS_RANGE)
                    .bindIntText({ WaveSettings.feedCap(s.maxCards) }, { s.maxCards = it })
                    .comment(WaveBundle.message("settings.maxCards.comment", WaveSettings.MAX_CARDS_RANGE.first, WaveSettings.MAX_CARDS_RANGE.last, SessionFeed.DEFAULT_MAX_CARDS))
            }
            row(WaveBundle.message("settings.directories.label")) {
                textArea().columns(COLUMNS_LARGE)
                    .applyToComponent { rows = 3 }
                    .bindText(
                        { p.additionalDirectories.joinToString("\n") },
                        { text ->
                            p.additionalDirectories.clear()
                            p.additionalDirectories.addAll(text.lines().map { it.trim() }.filter { it.isNotEmpty() })
                        },
                    )
                    .comment(WaveBundle.message("settings.directories.comment"))
            }
            group(WaveBundle.message("settings.permissions.group")) {
                row(WaveBundle.message("settings.mode.label")) {
                    comboBox(PermissionModes.ALL.map { ModeItem(it) })
                        .bindItem({ ModeItem(permissionForm.mode) }, { permissionForm.mode = it?.mode ?: PermissionModes.ASK })
                        .comment(WaveBundle.message("settings.mode.comment"))
                }
                row(WaveBundle.message("settings.allow.label")) {
                    textArea().columns(COLUMNS_LARGE)
                        .applyToComponent { rows = 5 }
                        .bindText({ permissionForm.allowText }, { permissionForm.allowText = it })
                        .comment(WaveBundle.message("settings.allow.comment"))
                }
                row(WaveBundle.message("settings.deny.label")) {
                    textArea().columns(COLUMNS_LARGE)
                        .applyToComponent { rows = 3 }
                        .bindText({ permissionForm.denyText }, { permissionForm.denyText = it })
                        .comment(WaveBundle.message("settings.deny.comment"))
                }
            }
        }
    }

    override fun reset() {
        // "Always allow" answers in the tool window change the saved rules while the page may be open.
        permissionForm.reset(permissionStore.load())
        super.reset()
    }

    override fun apply() {
        // A path that cannot work stops Apply with the reason, in the Settings dialog's error line.
        SettingsChecks.nodePath(nodeField.text)?.let { throw ConfigurationException(it, WaveBundle.message("settings.node.error.title")) }
        SettingsChecks.existingFile(gitBashField.text)?.let { throw ConfigurationException(it, WaveBundle.message("settings.gitBash.error.title")) }
        shellField?.let { f -> SettingsChecks.shell(f.text)?.let { throw ConfigurationException(it, WaveBundle.message("settings.shell.error.title")) } }
        val startSettings = coreStartSettings()
        super.apply()
        try {
            val permissions = permissionForm.toSettings()
            if (permissionForm.isModified(permissionStore.load())) {
                val service = WaveProjectService.getInstanceIfCreated(project)
                // A rule the core cannot read must stop Apply here, so Apply has the core's answer before it
                // returns; the core answers in milliseconds, and the bounded wait runs on a pooled thread
                // under a modal progress, never blocking the UI thread.
                val problem = PlatformThreads.underProgress(project, WaveBundle.message("settings.permissions.applying.progress")) {
                    PermissionSettingsApplier(permissionStore) { service?.supervisor?.api() }.applyAndWait(permissions)
                }.getOrElse { e -> e.message ?: e.toString() }
                if (problem != null) throw ConfigurationException(problem, WaveBundle.message("settings.permissions.error.title"))
            }
        } finally {
            // The core reads these only at start, and super.apply() has saved them whatever the rules did:
            // restart it so they take effect now (a later Apply would find nothing changed).
            if (coreStartSettings() != startSettings) WaveProjectService.getInstanceIfCreated(project)?.restartIfRunning()
        }
    }

    /** The Node.js Wave Tools downloads: where it is, or the button that downloads it, or why there is none. */
    private fun Panel.managedNodeRow() {
        val managed = ManagedNodeService.getInstance()
        val runtime = managed.runtime
        row(WaveBundle.message("settings.managedNode.label")) {
            when {
                runtime == null -> label(WaveBundle.message("settings.managedNode.unavailable"))
                managed.installedNode() != null -> label(WaveBundle.message("settings.managedNode.installed", PinnedNode.VERSION, runtime.installDir))
                else -> button(WaveBundle.message("settings.managedNode.download.button", PinnedNode.VERSION.major)) { managed.download(project) }
                    .comment(WaveBundle.message("settings.managedNode.comment"))
            }
        }
    }

    /** A row with a path field bound to a setting (the field is checked on Apply, see apply()). */
    private fun Panel.pathRow(label: String, field: TextFieldWithBrowseButton, get: () -> String?, set: (String) -> Unit, comment: String) {
        row(label) {
            cell(field)
                .onReset { field.text = get() ?: "" }
                .onIsModified { field.text.trim() != (get() ?: "") }
                .onApply { set(field.text.trim()) }
                .comment(comment)
        }
    }

    /** A path field with a browse button that opens the IDE's file chooser. */
    private fun browseField(title: String): TextFieldWithBrowseButton {
        val field = TextFieldWithBrowseButton()
        field.textField.columns = COLUMNS_LARGE
        field.addActionListener {
            val descriptor = FileChooserDescriptor(true, false, false, false, false, false).withTitle(title)
            val start = field.text.trim().takeIf { it.isNotEmpty() }?.let { LocalFileSystem.getInstance().findFileByPath(it) }
            FileChooser.chooseFile(descriptor, project, start)?.let { field.text = it.path }
        }
        return field
    }

    /** A problem from [SettingsChecks] as the platform shows it: an error outline and its message under the field. */
    private fun ValidationInfoBuilder.problem(message: String?): ValidationInfo? = message?.let { error(it) }

    private fun coreStartSettings(): List<Any?> {
        val s = WaveSettings.getInstance().state
        return listOf(s.nodePath, s.waveShell, s.gitBashPath, WaveProjectSettings.getInstance(project).state.additionalDirectories.toList())
    }
}
