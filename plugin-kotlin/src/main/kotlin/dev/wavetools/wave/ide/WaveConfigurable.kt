package dev.wavetools.wave.ide

import com.intellij.openapi.options.BoundConfigurable
import com.intellij.openapi.project.Project
import com.intellij.openapi.ui.DialogPanel
import com.intellij.ui.dsl.builder.COLUMNS_LARGE
import com.intellij.ui.dsl.builder.bindIntText
import com.intellij.ui.dsl.builder.bindText
import com.intellij.ui.dsl.builder.columns
import com.intellij.ui.dsl.builder.panel

/** Settings | Tools | Wave Tools. Changes apply when the core next starts (the page offers a restart). */
class WaveConfigurable(private val project: Project) : BoundConfigurable("Wave Tools") {
    override fun createPanel(): DialogPanel {
        val s = WaveSettings.getInstance().state
        val p = WaveProjectSettings.getInstance(project).state
        return panel {
            row("Node.js path:") {
                textField().columns(COLUMNS_LARGE)
                    .bindText({ s.nodePath ?: "" }, { s.nodePath = it.trim() })
                    .comment("Node.js 18 or newer. Empty: the IDE's PATH, then nvm, fnm, volta, asdf, Homebrew and the usual install places.")
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
        }
    }

    override fun apply() {
        super.apply()
        // The core reads these at start; restart it so they take effect now.
        WaveProjectService.getInstanceIfCreated(project)?.restartIfRunning()
    }
}
