// The plugin itself is built by plugin-kotlin/build.gradle.kts. Declaring the plugins here (not
// applied) loads them once for the whole build, as Gradle recommends for multi-project builds.
// `gradle buildPlugin`, `gradle test` and `gradle verifyPlugin` at the root run the plugin's tasks.
plugins {
    id("org.jetbrains.kotlin.jvm") apply false
    id("org.jetbrains.intellij.platform") apply false
    id("org.jetbrains.changelog") apply false
}
