@rem Gradle wrapper start script for Windows: see gradlew.
@if "%DEBUG%"=="" @echo off
setlocal
set APP_HOME=%~dp0
set APP_NAME=%~n0
if defined JAVA_HOME (set JAVA_EXE=%JAVA_HOME%\bin\java.exe) else (set JAVA_EXE=java.exe)
"%JAVA_EXE%" -version >NUL 2>&1
if errorlevel 1 (
  echo ERROR: no usable Java: set JAVA_HOME to a JDK 17 or newer. 1>&2
  exit /b 1
)
"%JAVA_EXE%" -Xmx64m -Xms64m %JAVA_OPTS% %GRADLE_OPTS% "-Dorg.gradle.appname=%APP_NAME%" -classpath "%APP_HOME%gradle\wrapper\gradle-wrapper.jar" org.gradle.wrapper.GradleWrapperMain %*
exit /b %ERRORLEVEL%
