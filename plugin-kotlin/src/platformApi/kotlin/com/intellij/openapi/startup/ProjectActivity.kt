// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/startup/StartupActivity.kt @ 05fc59300692e9b84414edb53858ea3e5705fc7d
package com.intellij.openapi.startup

import com.intellij.openapi.project.Project

interface ProjectActivity {
  suspend fun execute(project: Project)
}
