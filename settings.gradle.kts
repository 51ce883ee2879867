// Release build of the Wave Tools JetBrains plugin. Follows the IntelliJ Platform Plugin Template
// (settings-plugin layout: repositories here, plugin versions pinned in pluginManagement).
import org.jetbrains.intellij.platform.gradle.extensions.intellijPlatform

rootProject.name = "wave-tools"

pluginManagement {
    plugins {
        // Pinned to the Kotlin stdlib bundled with the oldest supported IDE (2024.3 bundles 2.0.21):
        // the plugin ships no stdlib of its own, so newer compiler output could fail at run time there.
        // plugin-kotlin/scripts/kotlin.mjs checks that the npm package kotlin-compiler has this version.
        id("org.jetbrains.kotlin.jvm") version "2.0.21"
        // CHANGELOG.md -> <change-notes>, as the IntelliJ Platform Plugin Template does.
        id("org.jetbrains.changelog") version "2.5.0"
    }
}

plugins {
    id("org.gradle.toolchains.foojay-resolver-convention") version "1.0.0"
    // 2.18.1 (2026-07-10) is the newest release in the plugin's CHANGELOG (JetBrains/intellij-platform-gradle-plugin
    // CHANGELOG.md at 0066529b25587acaaf1274eebd8128119365f54c lists nothing newer but [next]).
    id("org.jetbrains.intellij.platform.settings") version "2.18.1"
}

@Suppress("UnstableApiUsage")
dependencyResolutionManagement {
    repositories {
        mavenCentral()

        // IntelliJ Platform Gradle Plugin Repositories Extension:
        // https://plugins.jetbrains.com/docs/intellij/tools-intellij-platform-gradle-plugin-repositories-extension.html
        intellijPlatform {
            defaultRepositories()
        }
    }
}

include("plugin-kotlin")
