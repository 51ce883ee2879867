package dev.wavetools.wave.bridge

/**
 * A path inside a WSL distribution as Windows names it: `\\wsl$\Ubuntu\home\me\app` or
 * `\\wsl.localhost\Ubuntu\home\me\app` (the IDE writes them with forward slashes too).
 *
 * Such projects are not supported yet: the core would run as a Windows process on the `\\wsl$`
 * share, so its Bash tool, its shims and every path it reports would be Windows-side while the
 * project's toolchain lives in Linux. Running the core inside the distribution through `wsl.exe`
 * also needs every path the tool window shows or opens translated both ways; until that exists the
 * plugin says so plainly instead of starting a core that half works.
 */
data class WslPath(val distribution: String, val linuxPath: String) {
    companion object {
        private val PATTERN = Regex("""^[\\/]{2}(wsl\$|wsl\.localhost)[\\/]+([^\\/]+)([\\/].*)?$""", RegexOption.IGNORE_CASE)

        fun parse(path: String): WslPath? {
            val m = PATTERN.matchEntire(path.trim()) ?: return null
            val rest = m.groupValues[3].replace('\\', '/').replace(Regex("/+"), "/").trimEnd('/')
            return WslPath(m.groupValues[2], rest.ifEmpty { "/" })
        }

        /**
         * The reason a project in WSL cannot start a core and what to do instead (the message, for the
         * notification and the status line), with where the project is and why under the details; null
         * for any other path.
         */
        fun unsupportedProject(projectPath: String): CoreLaunchException? {
            val wsl = parse(projectPath) ?: return null
            return CoreLaunchException(
                "Projects inside WSL are not supported by Wave Tools yet: $projectPath is in the WSL distribution ${wsl.distribution}. " +
                    "Open the project from a folder on a Windows drive, or run the IDE inside WSL.",
                listOf(
                    "$projectPath is ${wsl.linuxPath} in the WSL distribution ${wsl.distribution}.",
                    "The tools would run as Windows processes on the \\\\wsl$ share, not in Linux where the project's toolchain is, so Wave Tools does not start them.",
                    "JetBrains Gateway's WSL support runs the IDE inside WSL, where Wave Tools runs as on Linux.",
                ),
                FailureKind.WSL_PROJECT,
            )
        }
    }
}
