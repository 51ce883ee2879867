package dev.wavetools.wave.ide

import com.intellij.openapi.options.BoundConfigurable
import com.intellij.openapi.options.ConfigurationException
import com.intellij.openapi.project.Project
import com.intellij.openapi.ui.DialogPanel
import com.intellij.ui.dsl.builder.COLUMNS_LARGE
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

/**
 * Settings | Tools | Wave Tools. The core reads the paths and directories at start, so changing them
 * restarts it; the permission mode and rules go to the running core at once (and are kept for the project).
 */
class WaveConfigurable(private val project: Project) : BoundConfigurable("Wave Tools") {
    private val permissionStore = WaveProjectSettings.getInstance(project).permissionStore
    private val permissionForm = PermissionSettingsForm(permissionStore.load())

    /** A mode in the combo box, shown by its label. */
    private data class ModeItem(val mode: String) {
        override fun toString(): String = PermissionSettingsForm.MODE_LABELS[mode] ?: mode
    }

    override fun createPanel(): DialogPanel {
        val s = WaveSettings.getInstance().state
        val p = WaveProjectSettings.getInstance(project).state
        return panel {
            row("Node.js path:") {
                textField().columns(COLUMNS_LARGE)
                    .bindText({ s.nodePath ?: "" }, { s.nodePath = it.trim() })
                    .comment(
                        "Node.js ${NodeLocator.MINIMUM_MAJOR} or newer. Empty: the IDE's own Node.js interpreter (where it has one), the IDE's PATH, " +
                            "nvm, fnm, volta, asdf, Homebrew and the usual install places, then the Node.js ${PinnedNode.VERSION} downloaded for Wave Tools.",
                    )
            }
            row("In use:") {
                label(WaveProjectService.getInstanceIfCreated(project)?.nodeInUse?.describe() ?: "(the core has not started in this project yet)")
            }
            row("Downloaded runtime:") {
                val managed = ManagedNodeService.getInstance()
                val installed = managed.installedNode()
                when {
                    installed != null -> label("Node.js ${PinnedNode.VERSION} in ${managed.runtime?.installDir}")
                    managed.runtime == null -> label("none available for this machine")
                    else -> button("Download Node.js ${PinnedNode.VERSION} for Wave Tools") { managed.download(project) }
                        .comment("From nodejs.org through the IDE's proxy settings, checked against the SHA-256 pinned in the plugin; kept in the IDE's system folder for all projects.")
                }
            }
            row("Shell (WAVE_SHELL):") {
                textField().columns(COLUMNS_LARGE)
                    .bindText({ s.waveShell ?: "" }, { s.waveShell = it.trim() })
                    .comment("bash or zsh for the Bash tool. Empty: the core picks one.")
            }
            row("Git Bash (WAVE_GIT_BASH_PATH):") {
                textField().columns(COLUMNS_LARGE)
                    .bindText({ s.gitBashPath ?: "" }, { s.gitBashPath = it.trim() })
                    .comment("Windows only: bash.exe of Git for Windows.")
            }
            row("Default command timeout (s):") {
                intTextField(0..86_400)
                    .bindIntText({ s.defaultTimeoutSeconds }, { s.defaultTimeoutSeconds = it })
                    .comment("For commands typed in the Wave tool window. 0: the core's default.")
            }
            row("Additional directories:") {
                textArea().columns(COLUMNS_LARGE)
                    .applyToComponent { rows = 3 }
                    .bindText(
                        { p.additionalDirectories.joinToString("\n") },
                        { text ->
                            p.additionalDirectories.clear()
                            p.additionalDirectories.addAll(text.lines().map { it.trim() }.filter { it.isNotEmpty() })
                        },
                    )
                    .comment("One per line: directories outside the project a command may cd into and stay in.")
            }
            group("Permissions (this project)") {
                row("Mode:") {
                    comboBox(PermissionModes.ALL.map { ModeItem(it) })
                        .bindItem({ ModeItem(permissionForm.mode) }, { permissionForm.mode = it?.mode ?: PermissionModes.ASK })
                        .comment("Ask: the Wave tool window asks before a command, or a write outside the project, that no rule allows.")
                }
                row("Always allow:") {
                    textArea().columns(COLUMNS_LARGE)
                        .applyToComponent { rows = 5 }
                        .bindText({ permissionForm.allowText }, { permissionForm.allowText = it })
                        .comment("One rule per line: an exact command (git status), a prefix (npm run test:*, git log *), or Write(/abs/dir/**).")
                }
                row("Always deny:") {
                    textArea().columns(COLUMNS_LARGE)
                        .applyToComponent { rows = 3 }
                        .bindText({ permissionForm.denyText }, { permissionForm.denyText = it })
                        .comment("Deny rules win over allow rules.")
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
        val startSettings = coreStartSettings()
        super.apply()
        try {
            val permissions = permissionForm.toSettings()
            if (permissionForm.isModified(permissionStore.load())) {
                val service = WaveProjectService.getInstanceIfCreated(project)
                // The core answers at once; the wait is bounded, and a rule it cannot read must stop Apply here.
                val problem = PermissionSettingsApplier(permissionStore) { service?.supervisor?.api() }.applyAndWait(permissions)
                if (problem != null) throw ConfigurationException(problem, "Wave Tools permissions")
            }
        } finally {
            // The core reads these only at start, and super.apply() has saved them whatever the rules did:
            // restart it so they take effect now (a later Apply would find nothing changed).
            if (coreStartSettings() != startSettings) WaveProjectService.getInstanceIfCreated(project)?.restartIfRunning()
        }
    }

    private fun coreStartSettings(): List<Any?> {
        val s = WaveSettings.getInstance().state
        return listOf(s.nodePath, s.waveShell, s.gitBashPath, WaveProjectSettings.getInstance(project).state.additionalDirectories.toList())
    }
}
