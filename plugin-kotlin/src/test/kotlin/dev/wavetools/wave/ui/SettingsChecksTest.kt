package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.OsFamily
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.attribute.PosixFilePermissions

/** The settings page's checks on real files: empty is fine, a wrong path says what is wrong in words. */
class SettingsChecksTest {
    private val dir = Files.createTempDirectory("wave-settings-").toRealPath()

    @AfterEach
    fun cleanup() = TestSupport.deleteTree(dir)

    private fun file(name: String, executable: Boolean) = dir.resolve(name).also {
        Files.writeString(it, "#!/bin/sh\n")
        Files.setPosixFilePermissions(it, PosixFilePermissions.fromString(if (executable) "rwxr-xr-x" else "rw-r--r--"))
    }

    @Test
    fun `Node_js - empty searches, an executable or a directory holding node is fine, anything else says why`() {
        assertNull(SettingsChecks.nodePath(""))
        assertNull(SettingsChecks.nodePath(TestSupport.node.toString()), "the Node.js the tests run on")
        assertNull(SettingsChecks.nodePath(TestSupport.node.parent.toString()), "its directory")
        assertEquals("There is no such file.", SettingsChecks.nodePath(dir.resolve("nope").toString()))
        assertEquals("This file cannot be run (it is not executable).", SettingsChecks.nodePath(file("node", executable = false).toString()))
        assertEquals("This directory has no node.", SettingsChecks.nodePath(Files.createDirectory(dir.resolve("empty")).toString()))
        // On Windows there is no executable bit, and the directory must hold node.exe.
        assertNull(SettingsChecks.nodePath(file("node.exe", executable = false).toString(), OsFamily.WINDOWS))
        assertEquals("This directory has no node.exe.", SettingsChecks.nodePath(dir.resolve("empty").toString(), OsFamily.WINDOWS))
        assertNull(SettingsChecks.nodePath(dir.toString(), OsFamily.WINDOWS))
    }

    @Test
    fun `shell - bash or zsh by name or an existing path, nothing else`() {
        assertNull(SettingsChecks.shell(""))
        assertNull(SettingsChecks.shell("zsh"))
        assertNull(SettingsChecks.shell("/bin/bash"))
        assertEquals("Wave Tools runs bash or zsh.", SettingsChecks.shell("fish"))
        assertEquals("There is no such file.", SettingsChecks.shell("/no/such/bash"))
        assertEquals("This file cannot be run (it is not executable).", SettingsChecks.shell(file("bash", executable = false).toString()))
    }

    @Test
    fun `Git Bash - an existing file`() {
        assertNull(SettingsChecks.existingFile(""))
        assertNull(SettingsChecks.existingFile(file("bash.exe", executable = false).toString()))
        assertEquals("There is no such file.", SettingsChecks.existingFile(dir.resolve("bash.exe.missing").toString()))
    }
}
