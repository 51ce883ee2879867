import org.jetbrains.intellij.platform.gradle.IntelliJPlatformType
import org.jetbrains.intellij.platform.gradle.tasks.PrepareSandboxTask
import java.util.zip.ZipFile

plugins {
    id("org.jetbrains.kotlin.jvm")
    id("org.jetbrains.intellij.platform")
}

// The plugin ships the esbuild bundle of node-core and its vendor binaries (ugrep, bfs, rg per platform).
val repoRoot: Directory = rootProject.layout.projectDirectory
val coreBundle: RegularFile = repoRoot.file("node-core/dist/wave-core.js")
val coreVendor: Directory = repoRoot.dir("node-core/vendor")
val isWindows = System.getProperty("os.name").startsWith("Windows", ignoreCase = true)

dependencies {
    // IntelliJ Platform Gradle Plugin Dependencies Extension:
    // https://plugins.jetbrains.com/docs/intellij/tools-intellij-platform-gradle-plugin-dependencies-extension.html
    intellijPlatform {
        // The floor: IntelliJ IDEA / WebStorm 2024.3 (build 243, Java 21, Kotlin stdlib 2.0.21).
        // Gson and kotlinx-coroutines come from the platform and are never bundled.
        intellijIdeaCommunity("2024.3.6")
    }

    // bridge/ and ui/ tests are plain JUnit 5; they need no IDE test framework.
    testImplementation(platform("org.junit:junit-bom:5.11.4"))
    testImplementation("org.junit.jupiter:junit-jupiter")
    testRuntimeOnly("org.junit.platform:junit-platform-launcher")
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
    }

    pluginVerification {
        ides {
            recommended()
            create(IntelliJPlatformType.IntellijIdeaCommunity, "2024.3.6")
            create(IntelliJPlatformType.WebStorm, "2024.3")
        }
    }
}

// node-core is built by npm (esbuild). Gradle runs the same script the README documents and fails
// with the fix when npm or the dependencies are missing.
val buildCore by tasks.registering(Exec::class) {
    group = "build"
    description = "Bundles node-core into node-core/dist/wave-core.js (npm run build)."
    workingDir = repoRoot.asFile
    commandLine(if (isWindows) "npm.cmd" else "npm", "run", "build")
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

    test {
        useJUnitPlatform()
        dependsOn(buildCore)
        systemProperty("java.awt.headless", "true")
        systemProperty("wave.repoRoot", repoRoot.asFile.absolutePath)
        systemProperty("wave.coreScript", coreBundle.asFile.absolutePath)
    }
}
