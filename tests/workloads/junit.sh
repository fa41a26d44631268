#!/usr/bin/env bash
# The JUnit workload: JUnit 5's console launcher (org.junit.platform.console.ConsoleLauncher,
# from the console-standalone jar) runs Apache Commons Codec 1.17.1's own test suite (its
# published `tests` jar) once on HotSpot and once on jxvm; the test passes when the two
# summaries (containers and tests found, started, successful, skipped, aborted, failed) and
# the exit codes are equal. The jars come from Maven Central through
# scripts/fetch-junit-workload.sh (pinned versions and SHA-256s, cached in target/workloads).
#
# Scope: every test package of the suite except
#   - org.apache.commons.codec.language.bm (Beider-Morse: two performance tests and an
#     all-characters test take 30 s on HotSpot with its JIT and over 10 minutes interpreted),
#   - the class digest.MessageDigestAlgorithmsTest (hashes a 1 MiB buffer seven ways with
#     each of the 13 algorithms: about 4.5 minutes on jxvm, 8 on `java -Xint`).
# Both VMs get the same fixed heap: tests that depend on free memory (Base64Test.testCodec265
# wants over 5 GiB, XXHash32OverflowTest a 2 GiB array) then abort on both through their
# assumptions, whatever the machine's memory.
#
# Usage: tests/workloads/junit.sh [--jxvm PATH]   (JUNIT_TIMEOUT: seconds per run, default 900;
# JUNIT_JXVM_FLAGS: options for jxvm alone)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/scripts/ensure-jdk.sh"
JXVM="$ROOT/target/release/jxvm"
if [[ "${1:-}" == "--jxvm" ]]; then
    JXVM="$2"
fi
TIMEOUT="${JUNIT_TIMEOUT:-900}"
if [[ ! -x "$JXVM" ]]; then
    (cd "$ROOT" && cargo build --release -p jxvm)
fi

DIR="$(bash "$ROOT/scripts/fetch-junit-workload.sh")"
J="$DIR/jars"
OUT="$DIR/out"
mkdir -p "$OUT"
# Run from the unpacked test classes' Maven-style root: tests open src/test/resources/... .
WORK="$DIR/commons-codec"
CP="src/test/resources:$J/commons-codec-1.17.1.jar:$J/commons-lang3-3.14.0.jar:$J/commons-io-2.16.1.jar:$J/hamcrest-2.2.jar"
LAUNCHER=(-Xmx512m -jar "$J/junit-platform-console-standalone-1.14.1.jar" execute
    --disable-banner --disable-ansi-colors --details=summary
    -cp "$CP" --scan-class-path
    --exclude-package=org.apache.commons.codec.language.bm
    --exclude-classname='.*\.MessageDigestAlgorithmsTest')

export LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=UTC
unset JAVA_TOOL_OPTIONS JDK_JAVA_OPTIONS _JAVA_OPTIONS || true

# run NAME VM...: runs the launcher, writes $OUT/NAME.out, .rc, .summary and prints the time.
run() {
    local name="$1"
    shift
    local start end rc=0
    start=$(date +%s%N)
    (cd "$WORK" && timeout "$TIMEOUT" "$@" "${LAUNCHER[@]}") >"$OUT/$name.out" 2>&1 </dev/null || rc=$?
    end=$(date +%s%N)
    echo "$rc" >"$OUT/$name.rc"
    grep -E '^\[ *[0-9]+ (containers|tests) [a-z]+ *\]$' "$OUT/$name.out" >"$OUT/$name.summary" || true
    printf 'junit workload: %-7s exit %d in %d.%01d s\n' "$name" "$rc" \
        $(((end - start) / 1000000000)) $(((end - start) / 100000000 % 10))
}

run hotspot "$JAVA_HOME/bin/java"
# JUNIT_JXVM_FLAGS: options for jxvm alone (such as -Xcomp: the engine under test).
read -r -a JXVM_FLAGS <<<"${JUNIT_JXVM_FLAGS:-}"
run jxvm "$JXVM" ${JXVM_FLAGS[@]+"${JXVM_FLAGS[@]}"}

found="$(sed -nE 's/^\[ *([0-9]+) tests found.*/\1/p' "$OUT/hotspot.summary")"
if [[ -z "$found" || "$found" -lt 1000 ]]; then
    echo "junit workload: HotSpot's run found ${found:-no} tests (see $OUT/hotspot.out)" >&2
    echo "junit: 0 passed, 1 failed"
    exit 1
fi
if diff -u --label hotspot --label jxvm "$OUT/hotspot.summary" "$OUT/jxvm.summary" \
    && [[ "$(cat "$OUT/hotspot.rc")" == "$(cat "$OUT/jxvm.rc")" ]]; then
    counts="$(sed -nE 's/^\[ *([0-9]+) tests (found|skipped|aborted|successful|failed) *\]$/\1 \2/p' \
        "$OUT/jxvm.summary" | paste -sd, - | sed 's/,/, /g')"
    echo "junit workload: the same on both VMs: tests $counts"
    echo "junit: 1 passed, 0 failed"
else
    echo "junit workload: the runs differ (exit codes $(cat "$OUT/hotspot.rc") and $(cat "$OUT/jxvm.rc")); jxvm's output:" >&2
    tail -n 60 "$OUT/jxvm.out" >&2
    echo "junit: 0 passed, 1 failed"
    exit 1
fi
