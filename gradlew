#!/bin/sh
# Gradle wrapper start script: runs the Gradle version gradle/wrapper/gradle-wrapper.properties pins,
# downloading it once and checking it against the pinned SHA-256 (distributionSha256Sum).
#
# gradle/wrapper/gradle-wrapper.jar is the Gradle wrapper of Debian's gradle package (4.4.1-18:
# gradle-wrapper and gradle-cli classes in one jar), the newest one this project can get; a wrapper of
# any version runs any Gradle distribution. `./gradlew wrapper` regenerates both with Gradle's own.
set -e

app_home=$(cd "$(dirname "$0")" && pwd -P)
app_name=$(basename "$0")

if [ -n "$JAVA_HOME" ]; then
    java_cmd="$JAVA_HOME/bin/java"
    if [ ! -x "$java_cmd" ]; then
        echo "ERROR: JAVA_HOME is set to $JAVA_HOME, but $java_cmd is not an executable Java. Set JAVA_HOME to a JDK 17 or newer." >&2
        exit 1
    fi
else
    java_cmd=java
    if ! command -v java >/dev/null 2>&1; then
        echo "ERROR: no java on PATH and JAVA_HOME is not set. Install a JDK 17 or newer (21 for the IntelliJ Platform build)." >&2
        exit 1
    fi
fi

# Word splitting of JAVA_OPTS and GRADLE_OPTS is intended, as in Gradle's own script.
# shellcheck disable=SC2086
exec "$java_cmd" -Xmx64m -Xms64m $JAVA_OPTS $GRADLE_OPTS "-Dorg.gradle.appname=$app_name" \
    -classpath "$app_home/gradle/wrapper/gradle-wrapper.jar" org.gradle.wrapper.GradleWrapperMain "$@"
