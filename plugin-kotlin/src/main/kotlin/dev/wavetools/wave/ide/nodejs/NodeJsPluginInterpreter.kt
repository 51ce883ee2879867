package dev.wavetools.wave.ide.nodejs

import com.intellij.javascript.nodejs.interpreter.NodeJsInterpreterManager
import com.intellij.javascript.nodejs.interpreter.local.NodeJsLocalInterpreter
import com.intellij.javascript.nodejs.interpreter.wsl.WslNodeInterpreter
import com.intellij.openapi.project.Project
import dev.wavetools.wave.bridge.IdeNodeInterpreter
import dev.wavetools.wave.ide.IdeNodeInterpreterProvider
import java.nio.file.Paths

/** The project's interpreter from Languages & Frameworks | Node.js; loaded only with the Node.js plugin. */
class NodeJsPluginInterpreter : IdeNodeInterpreterProvider {
    override fun interpreter(project: Project): IdeNodeInterpreter? =
        when (val interpreter = NodeJsInterpreterManager.getInstance(project).interpreter) {
            null -> null
            is NodeJsLocalInterpreter -> IdeNodeInterpreter.Local(Paths.get(interpreter.interpreterSystemIndependentPath).toString())
            is WslNodeInterpreter -> IdeNodeInterpreter.Unusable(
                interpreter.referenceName,
                "a WSL interpreter runs inside Linux, and the core of this project runs on the Windows side",
            )
            else -> IdeNodeInterpreter.Unusable(interpreter.referenceName, "only a local interpreter can run the core (this one is remote or in a container)")
        }
}
