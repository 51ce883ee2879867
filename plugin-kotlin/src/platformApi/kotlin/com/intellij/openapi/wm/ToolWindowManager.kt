// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/wm/ToolWindowManager.kt @ c79c3c02304548b82e53be8dbfbbe7e1b859a62a
package com.intellij.openapi.wm

import com.intellij.openapi.project.Project

abstract class ToolWindowManager {
  companion object {
    @JvmStatic
    fun getInstance(project: Project): ToolWindowManager = throw UnsupportedOperationException()
  }

  abstract fun getToolWindow(id: String?): ToolWindow?
}
