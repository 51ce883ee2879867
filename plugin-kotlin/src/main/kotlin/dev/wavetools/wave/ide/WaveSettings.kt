package dev.wavetools.wave.ide

import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.components.BaseState
import com.intellij.openapi.components.RoamingType
import com.intellij.openapi.components.Service
import com.intellij.openapi.components.SimplePersistentStateComponent
import com.intellij.openapi.components.State
import com.intellij.openapi.components.Storage
import com.intellij.openapi.components.StoragePathMacros
import com.intellij.openapi.components.service
import com.intellij.openapi.project.Project
import dev.wavetools.wave.bridge.PermissionSettings
import dev.wavetools.wave.bridge.PermissionStore
import dev.wavetools.wave.ui.SessionFeed

/** Machine settings (paths differ between machines, so they do not roam). */
@State(name = "WaveToolsSettings", storages = [Storage(value = "wave-tools.xml", roamingType = RoamingType.DISABLED)])
@Service(Service.Level.APP)
class WaveSettings : SimplePersistentStateComponent<WaveSettings.State>(State()) {
    class State : BaseState() {
        /** Node.js executable (or its directory); empty = search PATH and the usual install places. */
        var nodePath by string()
        /** WAVE_SHELL for the core: the bash or zsh its Bash tool runs. */
        var waveShell by string()
        /** WAVE_GIT_BASH_PATH for the core on Windows. */
        var gitBashPath by string()
        /** Default timeout of commands typed in the tool window, in seconds; 0 = the core's default. */
        var defaultTimeoutSeconds by property(0)
        /** How many cards each session's feed keeps (the oldest finished ones go first). */
        var maxCards by property(SessionFeed.DEFAULT_MAX_CARDS)
    }

    companion object {
        fun getInstance(): WaveSettings = ApplicationManager.getApplication().service()

        /** What Settings accepts for [State.maxCards]: enough to look back, few enough Swing cards to stay light. */
        val MAX_CARDS_RANGE = 20..2_000

        /** The cap a feed uses: a stored value outside [MAX_CARDS_RANGE] (an edited file) is brought into it. */
        fun feedCap(stored: Int): Int = stored.coerceIn(MAX_CARDS_RANGE)
    }
}

/** The settings the tool window reads each time it needs them, so a change applies without a restart. */
interface ToolWindowSettings {
    /** The timeout of a command typed in the tool window; null: the core's default. */
    val defaultTimeoutMs: Long?
    val maxCards: Int
}

/** [ToolWindowSettings] from Settings › Tools › Wave Tools. */
object IdeToolWindowSettings : ToolWindowSettings {
    private val state get() = WaveSettings.getInstance().state
    override val defaultTimeoutMs: Long? get() = state.defaultTimeoutSeconds.takeIf { it > 0 }?.let { it * 1000L }
    override val maxCards: Int get() = WaveSettings.feedCap(state.maxCards)
}

/** Per-project settings, kept in the workspace file (they name local directories). */
@State(name = "WaveToolsProjectSettings", storages = [Storage(StoragePathMacros.WORKSPACE_FILE)])
@Service(Service.Level.PROJECT)
class WaveProjectSettings : SimplePersistentStateComponent<WaveProjectSettings.State>(State()) {
    class State : BaseState() {
        /** More directories a `cd` may stay in (BASH-CWD), one absolute path each. */
        var additionalDirectories by list<String>()
        /** The permission mode chosen for this project ("ask", "allow-all", "deny-all"); null: the core's default (ask). */
        var permissionMode by string()
        /** The host's allow rules (the core reports them in `permission/rulesChanged`). */
        var allowRules by list<String>()
        var denyRules by list<String>()
    }

    /** The permission rules and mode, as the bridge reads and writes them. */
    val permissionStore: PermissionStore = object : PermissionStore {
        override fun load(): PermissionSettings = synchronized(this) {
            PermissionSettings(state.permissionMode, state.allowRules.toList(), state.denyRules.toList())
        }

        override fun save(settings: PermissionSettings) = synchronized(this) {
            state.permissionMode = settings.mode
            // Assigning goes through the stored property, which counts the change (BaseState's list()).
            state.allowRules = settings.allow.toMutableList()
            state.denyRules = settings.deny.toMutableList()
        }
    }

    companion object {
        fun getInstance(project: Project): WaveProjectSettings = project.service()
    }
}
