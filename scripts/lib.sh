# shellcheck shell=bash
# Shared set-up for Squall's scripts. Source it, do not run it:
#
#   . "$(dirname "$0")/lib.sh"
#
# After sourcing: SQUALL_ROOT is the repository root, JAVA_HOME points at a JDK 25
# (its bin/ first on PATH) and MVN is the Maven command. If either is missing it
# prints what to install and exits 2. Set SQUALL_NEED_MVN=0 before sourcing to
# skip the Maven check (call squall_require_mvn later when a build is needed).

SQUALL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SQUALL_ROOT

squall_log() { printf '%s\n' "$*" >&2; }

# Prints the major version of the java at $1 (a path to bin/java), or nothing.
squall_java_major() {
  local v
  [ -x "$1" ] || return 0
  v="$("$1" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1)"
  printf '%s' "$v"
}

squall_require_jdk() {
  local candidate
  if [ -n "${JAVA_HOME:-}" ] && [ "$(squall_java_major "$JAVA_HOME/bin/java")" = "25" ]; then
    :
  else
    JAVA_HOME=""
    for candidate in "${SQUALL_JVM_DIR:-/usr/lib/jvm}"/*25*; do
      [ -d "$candidate" ] || continue
      if [ "$(squall_java_major "$candidate/bin/java")" = "25" ] && [ -x "$candidate/bin/javac" ]; then
        JAVA_HOME="$candidate"
        break
      fi
    done
    if [ -z "$JAVA_HOME" ]; then
      squall_log "Squall needs JDK 25: apt-get install temurin-25-jdk, or set JAVA_HOME to a JDK 25."
      exit 2
    fi
  fi
  export JAVA_HOME
  export PATH="$JAVA_HOME/bin:$PATH"
}

squall_require_mvn() {
  if command -v mvn >/dev/null 2>&1; then
    MVN="$(command -v mvn)"
  else
    squall_log "Squall builds with Maven: apt-get install maven"
    exit 2
  fi
  # Maven 3.8/3.9 call sun.misc.Unsafe through Guava; JDK 25 warns about it on every run.
  case " ${MAVEN_OPTS:-} " in
    *sun-misc-unsafe-memory-access*) ;;
    *) export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow" ;;
  esac
  export MVN
}

squall_require_jdk
if [ "${SQUALL_NEED_MVN:-1}" != "0" ]; then
  squall_require_mvn
fi
