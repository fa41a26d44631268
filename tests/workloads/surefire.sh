#!/usr/bin/env bash
# The Surefire workload: Maven builds the tiny project in tests/workloads/surefire and its
# Surefire plugin runs the project's JUnit 5 tests in a forked VM named by Surefire's `jvm`
# parameter: once HotSpot's `$JAVA_HOME/bin/java`, once the `bin/java` of a home made by
# `jxvm --make-home` (Maven itself runs on HotSpot both times), and once more that jxvm with
# Surefire talking to its fork over TCP (the pom's profile tcp-fork) instead of the fork's
# standard streams, and once with Maven itself running on jxvm (JAVA_HOME the made home:
# javac in-process, and Surefire forking `java.home`'s bin/java, jxvm again). The test passes
# when the builds succeed, their Surefire reports count the same tests, failures, errors and
# skipped tests, and the line one test prints came from the VM named.
#
# Plugin and JUnit versions are pinned in the pom; Maven's local repository is
# target/workloads/m2, so only the first run downloads (from Maven Central).
#
# Usage: tests/workloads/surefire.sh [--jxvm PATH]   (SUREFIRE_TIMEOUT: seconds a build, 600)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/scripts/ensure-jdk.sh"
JXVM="$ROOT/target/release/jxvm"
if [[ "${1:-}" == "--jxvm" ]]; then
    JXVM="$2"
fi
TIMEOUT="${SUREFIRE_TIMEOUT:-600}"
if [[ ! -x "$JXVM" ]]; then
    (cd "$ROOT" && cargo build --release -p jxvm)
fi
if ! command -v mvn >/dev/null 2>&1; then
    echo "Installing Maven..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq maven >&2 \
        || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq maven >&2; }
fi

WORK="$ROOT/target/workloads/surefire"
REPO="$ROOT/target/workloads/m2"
mkdir -p "$WORK" "$REPO"
"$JXVM" --make-home "$WORK/home"
export LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=UTC
unset JAVA_TOOL_OPTIONS JDK_JAVA_OPTIONS _JAVA_OPTIONS MAVEN_OPTS || true

# build NAME MAVEN-JAVA-HOME [MVN-ARGS...]: builds a fresh copy of the project with Maven on
# that JDK, leaving
# $WORK/NAME.log, NAME.rc and NAME.counts (tests errors skipped failures of the report).
build() {
    local name="$1" home="$2" rc=0 start end
    shift 2
    rm -rf "${WORK:?}/$name"
    cp -r "$ROOT/tests/workloads/surefire" "$WORK/$name"
    start=$(date +%s%N)
    (cd "$WORK/$name" && JAVA_HOME="$home" timeout "$TIMEOUT" mvn -B -V -ntp \
        -Dmaven.repo.local="$REPO" "$@" test) >"$WORK/$name.log" 2>&1 </dev/null || rc=$?
    end=$(date +%s%N)
    echo "$rc" >"$WORK/$name.rc"
    cat "$WORK/$name"/target/surefire-reports/TEST-*.xml 2>/dev/null \
        | grep -o '<testsuite [^>]*>' \
        | sed -E 's/.* tests="([0-9]+)" errors="([0-9]+)" skipped="([0-9]+)" failures="([0-9]+)".*/tests=\1 errors=\2 skipped=\3 failures=\4/' \
        >"$WORK/$name.counts" || true
    printf 'surefire workload: %-7s exit %d in %d.%01d s\n' "$name" "$rc" \
        $(((end - start) / 1000000000)) $(((end - start) / 100000000 % 10))
}

build hotspot "$JAVA_HOME" -Djvm="$JAVA_HOME/bin/java"
build jxvm "$JAVA_HOME" -Djvm="$WORK/home/bin/java"
build jxvm-tcp "$JAVA_HOME" -Djvm="$WORK/home/bin/java" -Ptcp-fork
build jxvm-maven "$WORK/home"

ok=1
if [[ "$(cat "$WORK/hotspot.rc")" != 0 || ! -s "$WORK/hotspot.counts" ]] \
    || ! grep -q '^sum of 1..4 is 10 in OpenJDK' "$WORK/hotspot.log"; then
    echo "surefire workload: HotSpot's build failed (see $WORK/hotspot.log)" >&2
    ok=0
fi
for name in jxvm jxvm-tcp jxvm-maven; do
    if [[ "$ok" == 0 ]]; then
        break
    elif ! diff -u --label hotspot --label "$name" "$WORK/hotspot.counts" "$WORK/$name.counts" \
        || [[ "$(cat "$WORK/$name.rc")" != 0 ]]; then
        echo "surefire workload: the builds differ (exit codes $(cat "$WORK/hotspot.rc") and $(cat "$WORK/$name.rc")); $name's build:" >&2
        tail -n 60 "$WORK/$name.log" >&2
        ok=0
    elif ! grep -q '^sum of 1..4 is 10 in jxvm$' "$WORK/$name.log"; then
        echo "surefire workload: $name: a test's output is missing, or the fork was not jxvm" >&2
        ok=0
    fi
    # Maven's -V names the JDK it runs on.
    if [[ "$name" == jxvm-maven ]] && ! grep -q "runtime: $WORK/home\$" "$WORK/$name.log"; then
        echo "surefire workload: Maven did not run on jxvm's home (see $WORK/$name.log)" >&2
        ok=0
    fi
done
if [[ "$ok" == 1 ]]; then
    echo "surefire workload: the same on both VMs (forks over pipes, over TCP, and Maven on jxvm): $(cat "$WORK/jxvm.counts")"
    echo "surefire: 1 passed, 0 failed"
else
    echo "surefire: 0 passed, 1 failed"
    exit 1
fi
