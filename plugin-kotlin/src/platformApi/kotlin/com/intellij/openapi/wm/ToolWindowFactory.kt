// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/wm/ToolWindowFactory.kt @ 566c7c026a9eabaf685a105f6790a5fc19b160bd
package com.intellij.openapi.wm

import com.intellij.openapi.project.PossiblyDumbAware
import com.intellij.openapi.project.Project

interface ToolWindowFactory : PossiblyDumbAware {
  fun createToolWindowContent(project: Project, toolWindow: ToolWindow)
}
