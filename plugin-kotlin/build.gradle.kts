import org.jetbrains.changelog.Changelog
import org.jetbrains.intellij.platform.gradle.IntelliJPlatformType
import org.jetbrains.intellij.platform.gradle.tasks.PrepareSandboxTask
import java.util.zip.ZipFile

plugins {
    id("org.jetbrains.kotlin.jvm")
    id("org.jetbrains.intellij.platform")
    id("org.jetbrains.changelog")
}

// The plugin ships the esbuild bundle of node-core and its vendor binaries (ugrep, bfs, rg per platform).
val repoRoot: Directory = rootProject.layout.projectDirectory
val coreBundle: RegularFile = repoRoot.file("node-core/dist/wave-core.js")
val coreVendor: Directory = repoRoot.dir("node-core/vendor")
val isWindows = System.getProperty("os.name").startsWith("Windows", ignoreCase = true)
val npm = if (isWindows) "npm.cmd" else "npm"
val node = if (isWindows) "node.exe" else "node"
val pluginVersion: String = project.version.toString()

dependencies {
    // IntelliJ Platform Gradle Plugin Dependencies Extension:
    // https://plugins.jetbrains.com/docs/intellij/tools-intellij-platform-gradle-plugin-dependencies-extension.html
    intellijPlatform {
        // Compiled against IntelliJ IDEA Ultimate 2025.2, the first release that bundles the IDE's MCP
        // server (com.intellij.mcpServer), which the optional ide/mcp/ code needs, and the Node.js plugin
        // the optional ide/nodejs/ code needs. The plugin still installs from 2024.3 (since-build 243):
        // everything outside those optional parts uses API that 2024.3 has, which verifyPlugin checks
        // on the 2024.3.6 IDEs below. ide/ is also compiled by `npm run test:kotlin` against
        // src/platformApi (the transcribed declarations), which names the sources it was checked against.
        // Gson, kotlinx-coroutines and kotlinx-serialization come from the platform and are never bundled.
        intellijIdeaUltimate("2025.2")
        bundledPlugin("NodeJS")
        bundledPlugin("com.intellij.mcpServer")
    }

    // bridge/ and ui/ tests are plain JUnit 5; they need no IDE test framework.
    testImplementation(platform("org.junit:junit-bom:5.11.4"))
    testImplementation("org.junit.jupiter:junit-jupiter")
    testRuntimeOnly("org.junit.platform:junit-platform-launcher")
}

kotlin {
    compilerOptions {
        // Kotlin 2.0.21 (the stdlib of the oldest supported IDE, 2024.3) reading the class files of a
        // 2025.2 platform, whose Kotlin metadata may be newer than it expects.
        freeCompilerArgs.add("-Xskip-metadata-version-check")
    }
}

// CHANGELOG.md at the repository root feeds <change-notes>: the section of the version being built,
// or [Unreleased] until publishPlugin's patchChangelog moves it under the version.
changelog {
    path = repoRoot.file("CHANGELOG.md").asFile.path
    groups.empty()
}

intellijPlatform {
    // Names the sandbox directory and the zip (wave-tools-<version>.zip) instead of the subproject's name.
    projectName = "wave-tools"

    pluginConfiguration {
        ideaVersion {
            // The plugin uses long-stable platform API only (see README "JetBrains plugin"), so it stays
            // installable on newer IDEs; IPGP would otherwise cap it at 243.*.
            sinceBuild = "243"
            untilBuild = provider { null }
        }
        changeNotes = provider {
            with(changelog) {
                renderItem(
                    (getOrNull(pluginVersion) ?: getUnreleased()).withHeader(false).withEmptySections(false),
                    Changelog.OutputType.HTML,
                )
            }
        }
    }

    // The release workflow (.github/workflows/release.yml) provides these as secrets.
    signing {
        certificateChain = providers.environmentVariable("CERTIFICATE_CHAIN")
        privateKey = providers.environmentVariable("PRIVATE_KEY")
        password = providers.environmentVariable("PRIVATE_KEY_PASSWORD")
    }

    publishing {
        token = providers.environmentVariable("PUBLISH_TOKEN")
        // A pre-release version (0.2.0-beta.1) goes to its channel ("beta"), a plain one to the default channel.
        channels = provider { listOf(pluginVersion.substringAfter('-', "").substringBefore('.').ifEmpty { "default" }) }
    }

    pluginVerification {
        ides {
            // create(type, version) is IPGP 2.11+ (2.12 removed the older ide(...)).
            // The oldest supported IDEs (since-build 243): Community without, Ultimate with the Node.js plugin ...
            create(IntelliJPlatformType.IntellijIdeaCommunity, "2024.3.6")
            create(IntelliJPlatformType.IntellijIdeaUltimate, "2024.3.6")
            create(IntelliJPlatformType.WebStorm, "2024.3")
            // ... and the newest releases (the plugin has no until-build).
            recommended()
        }
    }
}

// node-core is built by npm (esbuild). Gradle runs the same script the README documents and fails
// with the fix when npm or the dependencies are missing.
val buildCore by tasks.registering(Exec::class) {
    group = "build"
    description = "Bundles node-core into node-core/dist/wave-core.js (npm run build)."
    workingDir = repoRoot.asFile
    commandLine(npm, "run", "build")
    inputs.dir(repoRoot.dir("node-core/src"))
    inputs.files(repoRoot.file("node-core/package.json"), repoRoot.file("node-core/scripts/build.mjs"), repoRoot.file("package-lock.json"))
    outputs.file(coreBundle)
    isIgnoreExitValue = true
    val nodeModules = repoRoot.dir("node_modules").asFile
    doFirst {
        if (!nodeModules.isDirectory) {
            throw GradleException("node_modules is missing at ${nodeModules.parent}. Install Node.js 20+ and run `npm ci` in the repository root, then build again.")
        }
    }
    doLast {
        val code = executionResult.get().exitValue
        if (code != 0) {
            throw GradleException("`npm run build` failed with exit code $code; run it in the repository root to see why (Node.js 20+ and `npm ci` are required).")
        }
    }
}

// The zip must never carry a helper that only runs on the machine it was built on (a distribution's
// dynamically linked `rg`, a Homebrew-linked ugrep): node-core/scripts/check-vendor.mjs reads every
// binary's headers (ELF, Mach-O, PE) and refuses those. -PrequireVendor=linux-x64,darwin-arm64,...
// (the release workflow) also refuses a zip missing one of those platforms.
val checkVendor by tasks.registering(Exec::class) {
    group = "verification"
    description = "Checks that node-core/vendor holds only portable helpers (node-core/scripts/check-vendor.mjs)."
    workingDir = repoRoot.asFile
    val required = providers.gradleProperty("requireVendor").orElse("")
    inputs.dir(coreVendor).optional().withPropertyName("vendor")
    inputs.property("requireVendor", required)
    inputs.file(repoRoot.file("node-core/scripts/check-vendor.mjs"))
    isIgnoreExitValue = true
    argumentProviders += CommandLineArgumentProvider {
        listOf("node-core/scripts/check-vendor.mjs") + required.get().let { if (it.isBlank()) emptyList() else listOf("--require", it) } + coreVendor.asFile.path
    }
    executable = node
    doLast {
        val code = executionResult.get().exitValue
        if (code != 0) {
            throw GradleException("node-core/vendor is not portable (see above). Rebuild it with `node-core/scripts/vendor-linux-x64.sh --portable`, or let the release workflow assemble every platform.")
        }
    }
}

tasks {
    withType<PrepareSandboxTask>().configureEach {
        dependsOn(buildCore)
        from(coreBundle) {
            into(pluginName.map { "$it/core" })
        }
        from(coreVendor) {
            into(pluginName.map { "$it/core/vendor" })
        }
    }

    buildPlugin {
        // Only the zip must be portable: runIde and the tests may use whatever helpers this machine has.
        dependsOn(checkVendor)
        // A zip without the core would install and then fail on first use; refuse to produce one.
        val zip = archiveFile
        doLast {
            ZipFile(zip.get().asFile).use { z ->
                val names = z.entries().asSequence().map { it.name }.toList()
                if (names.none { it.endsWith("/core/wave-core.js") }) {
                    throw GradleException("${zip.get().asFile.name} does not contain core/wave-core.js; check the prepareSandbox configuration.")
                }
            }
        }
    }

    publishPlugin {
        dependsOn(patchChangelog)
    }

    test {
        useJUnitPlatform()
        dependsOn(buildCore)
        systemProperty("java.awt.headless", "true")
        systemProperty("wave.repoRoot", repoRoot.asFile.absolutePath)
        systemProperty("wave.coreScript", coreBundle.asFile.absolutePath)
    }
}
