#!/bin/sh
# The image's launcher: runs the jar with the start-up cache the image was built with, or, with
# HYPERTERSE_SCRIPTS_COMPILER=graal, with GraalJS's optimizing compiler instead. The JVM cannot
# have both: the compiler comes in through --upgrade-module-path, and a JVM given that option maps
# no class cache at all (it says "AOT cache is disabled when the --upgrade-module-path option is
# specified"). Arguments are the jar's (start PATH ..., validate PATH, --help).
set -eu
home=${HYPERTERSE_HOME:-/app}
jar="$home/hyperterse.jar"
case "${HYPERTERSE_SCRIPTS_COMPILER:-interpreter}" in
  graal)
    set -- -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path="$home/graal-compiler" \
      -jar "$jar" "$@"
    ;;
  interpreter)
    if [ -f "$home/hyperterse.aot" ]; then
      set -- -XX:AOTCache="$home/hyperterse.aot" -jar "$jar" "$@"
    else
      set -- -jar "$jar" "$@"
    fi
    ;;
  *)
    echo "HYPERTERSE_SCRIPTS_COMPILER is '$HYPERTERSE_SCRIPTS_COMPILER': use interpreter (the default: scripts" \
      "interpreted, the start-up cache in use) or graal (GraalJS's optimizing compiler, no start-up cache)" >&2
    exit 2
    ;;
esac
# native access for SQLite, swc4j, Netty and Truffle (the jar's manifest allows it too); the second
# flag silences JDK 25's warning about Truffle's Unsafe memory access
exec java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow "$@"
