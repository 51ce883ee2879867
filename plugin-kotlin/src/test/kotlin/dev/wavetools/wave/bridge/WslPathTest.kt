package dev.wavetools.wave.bridge

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Project roots inside WSL are recognized in every spelling Windows and the IDE use, and refused with the reason. */
class WslPathTest {
    @Test
    fun `both WSL share names, either slash, any case`() {
        assertEquals(WslPath("Ubuntu", "/home/me/app"), WslPath.parse("""\\wsl$\Ubuntu\home\me\app"""))
        assertEquals(WslPath("Ubuntu-24.04", "/home/me/app"), WslPath.parse("""\\wsl.localhost\Ubuntu-24.04\home\me\app\"""))
        // project.basePath spells them with forward slashes.
        assertEquals(WslPath("Debian", "/srv/x"), WslPath.parse("//wsl.localhost/Debian/srv//x"))
        assertEquals(WslPath("Debian", "/srv/x"), WslPath.parse("//WSL$/Debian/srv/x"))
        assertEquals(WslPath("Debian", "/"), WslPath.parse("//wsl$/Debian"))
    }

    @Test
    fun `other paths are not WSL`() {
        assertNull(WslPath.parse("C:/Users/me/app"))
        assertNull(WslPath.parse("""\\server\share\app"""))
        assertNull(WslPath.parse("/home/me/wsl$/app"))
        assertNull(WslPath.parse("//wsl.localhost"))
        assertNull(WslPath.unsupportedProject("/home/me/app"))
    }

    @Test
    fun `a WSL project gets a launch error that says why and what to do`() {
        val e = WslPath.unsupportedProject("//wsl.localhost/Ubuntu/home/me/app")!!
        assertEquals(
            "Projects inside WSL are not supported by Wave Tools yet: //wsl.localhost/Ubuntu/home/me/app is in the WSL distribution Ubuntu. " +
                "Open the project from a folder on a Windows drive, or run the IDE inside WSL.",
            e.message,
        )
        assertEquals("//wsl.localhost/Ubuntu/home/me/app is /home/me/app in the WSL distribution Ubuntu.", e.details.first())
        assertTrue(e.details.any { it.contains("""\\wsl$ share""") }, e.details.toString())
        assertEquals(FailureKind.WSL_PROJECT, e.kind, "a setup problem: the tool window shows why instead of restarting")
        assertTrue(e.kind.isSetupProblem)
    }
}
