package dev.wavetools.wave.ide

import com.intellij.openapi.extensions.ExtensionPointName
import com.intellij.openapi.project.Project
import dev.wavetools.wave.bridge.IdeNodeInterpreter

/**
 * Reads the Node.js interpreter the IDE is configured with. The implementation lives in
 * `nodejs/` and is registered by `META-INF/wave-nodejs.xml`, which the IDE loads only when the
 * Node.js plugin is there (WebStorm, IntelliJ IDEA Ultimate); elsewhere this extension point is
 * empty and the plugin works the same without it.
 */
interface IdeNodeInterpreterProvider {
    fun interpreter(project: Project): IdeNodeInterpreter?

    companion object {
        val EP_NAME: ExtensionPointName<IdeNodeInterpreterProvider> = ExtensionPointName.create("dev.wavetools.wave.ideNodeInterpreter")

        fun find(project: Project): IdeNodeInterpreter? = EP_NAME.extensionList.firstNotNullOfOrNull { it.interpreter(project) }
    }
}
