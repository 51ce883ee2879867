// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/startup/StartupActivity.kt @ not-looked-up
package com.intellij.openapi.startup

import com.intellij.openapi.project.Project

interface ProjectActivity {
  suspend fun execute(project: Project)
}
