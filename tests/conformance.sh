#!/usr/bin/env bash
# Conformance test runner for jxvm.
#
# Compiles every program in tests/java/*.java with `javac --release 17`, runs it on
# HotSpot (`java`) and on jxvm, and compares the results. A program PASSES when
#   - stdout is byte-identical,
#   - the exit codes are equal, and
#   - when HotSpot wrote anything to stderr, the first stderr line is identical.
#
# Usage: tests/conformance.sh [--jxvm PATH] [--jobs N] [NAME...]
#
# CONFORMANCE_REPEAT=N runs jxvm N times per program (HotSpot once) and fails the program at
# the first run that differs (for threaded programs, whose bugs may show only sometimes).
# CONFORMANCE_JXVM_FLAGS="-Xcomp ..." gives jxvm alone more options (the engine under test).
#
# Program arguments come from a `// ARGS: a b c` comment line near the top of the
# source file (simple whitespace splitting, no quoting). VM flags passed to BOTH java
# and jxvm before -cp come from a `// JVMFLAGS: -Xmx64m ...` line the same way (only use
# flags jxvm accepts: -Xmx/-Xms/-Xss/-D/-verbose:gc/-Xlog:gc).
#
# tests/java/KNOWN_FAILURES lists programs expected to fail (one name per line,
# optional reason after the name, `#` comments allowed). Their failures are
# reported as XFAIL and do not fail the run; if one passes it is reported as
# XPASS and counted as a failure so the list stays honest.
#
# Results per program are written to tests/java/out/results/NAME/.
# Exit status: 0 if no failures, 1 if any failure, 2 on usage/setup errors.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
JAVA_DIR="$REPO_ROOT/tests/java"
OUT_DIR="$JAVA_DIR/out"
# Each run writes into its own directory (exported to the per-program workers) so that
# concurrent runs cannot clobber each other; it becomes out/results when the run ends.
RESULTS_DIR="${CONFORMANCE_RESULTS_DIR:-$OUT_DIR/results}"
KNOWN_FAILURES_FILE="$JAVA_DIR/KNOWN_FAILURES"
TIMEOUT_SECS="${CONFORMANCE_TIMEOUT:-120}"
# jxvm's class cache (-Xshare:auto, the default) goes in a directory of this run's own, never
# the user's: every run starts from an empty cache that its concurrent jobs fill together.
XDG_CACHE_HOME="$(mktemp -d "${TMPDIR:-/tmp}/jxvm-conformance-cache.XXXXXX")"
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
REPEAT="${CONFORMANCE_REPEAT:-1}"

usage() {
    echo "usage: $0 [--jxvm PATH] [--jobs N] [NAME...]" >&2
}

JXVM="$REPO_ROOT/target/release/jxvm"
JOBS=""
NAMES=()

# --- internal mode: run a single program (invoked in parallel via xargs) ------
if [[ "${1:-}" == "--run-one" ]]; then
    shift
    JXVM="$1"
    NAME="$2"
    SRC="$JAVA_DIR/$NAME.java"
    CLS_DIR="$OUT_DIR/$NAME"
    RES="$RESULTS_DIR/$NAME"
    rm -rf "$RES"
    mkdir -p "$RES" "$CLS_DIR"
    # Deterministic environment for both VMs.
    export LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=UTC
    unset JAVA_TOOL_OPTIONS JDK_JAVA_OPTIONS _JAVA_OPTIONS || true

    # Compile unless the class file is newer than the source.
    if [[ ! -f "$CLS_DIR/$NAME.class" || "$SRC" -nt "$CLS_DIR/$NAME.class" ]]; then
        TMP_CLS="$(mktemp -d "$OUT_DIR/.classes.XXXXXX")"
        if ! javac --release 17 -encoding UTF-8 -d "$TMP_CLS" "$SRC" >"$RES/javac.log" 2>&1; then
            rm -rf "$TMP_CLS"
            echo "compile" >"$RES/status"
            exit 0
        fi
        rm -rf "$CLS_DIR"
        mv "$TMP_CLS" "$CLS_DIR"
    fi

    # Program arguments from a `// ARGS: ...` line in the first 10 lines.
    ARGS_LINE="$(head -n 10 "$SRC" | sed -n 's#^[[:space:]]*//[[:space:]]*ARGS:[[:space:]]*##p' | head -n 1)"
    read -r -a PROG_ARGS <<<"$ARGS_LINE" || true
    # VM flags for both VMs from a `// JVMFLAGS: ...` line in the first 10 lines.
    FLAGS_LINE="$(head -n 10 "$SRC" | sed -n 's#^[[:space:]]*//[[:space:]]*JVMFLAGS:[[:space:]]*##p' | head -n 1)"
    read -r -a VM_FLAGS <<<"$FLAGS_LINE" || true

    # Options for jxvm alone (CONFORMANCE_JXVM_FLAGS, e.g. "-Xcomp"): the engine under test.
    read -r -a JXVM_EXTRA <<<"${CONFORMANCE_JXVM_FLAGS:-}"
    set +e
    timeout "$TIMEOUT_SECS" java -Xshare:auto ${VM_FLAGS[@]+"${VM_FLAGS[@]}"} -cp "$CLS_DIR" "$NAME" ${PROG_ARGS[@]+"${PROG_ARGS[@]}"} \
        >"$RES/expected.out" 2>"$RES/expected.err" </dev/null
    echo $? >"$RES/expected.rc"
    # jxvm runs CONFORMANCE_REPEAT times (default once); the first run that differs fails it.
    status=pass
    for ((rep = 1; rep <= REPEAT; rep++)); do
        timeout "$TIMEOUT_SECS" "$JXVM" ${JXVM_EXTRA[@]+"${JXVM_EXTRA[@]}"} ${VM_FLAGS[@]+"${VM_FLAGS[@]}"} -cp "$CLS_DIR" "$NAME" ${PROG_ARGS[@]+"${PROG_ARGS[@]}"} \
            >"$RES/actual.out" 2>"$RES/actual.err" </dev/null
        echo $? >"$RES/actual.rc"
        if ! cmp -s "$RES/expected.out" "$RES/actual.out"; then
            status=fail
        fi
        if [[ "$(cat "$RES/expected.rc")" != "$(cat "$RES/actual.rc")" ]]; then
            status=fail
        fi
        if [[ -s "$RES/expected.err" ]]; then
            if [[ "$(head -n 1 "$RES/expected.err")" != "$(head -n 1 "$RES/actual.err")" ]]; then
                status=fail
            fi
        fi
        if [[ "$status" == fail ]]; then
            ((REPEAT > 1)) && echo "run $rep of $REPEAT" >"$RES/repeat"
            break
        fi
    done
    set -e

    echo "$status" >"$RES/status"
    exit 0
fi

# --- argument parsing ----------------------------------------------------------
while [[ $# -gt 0 ]]; do
    case "$1" in
        --jxvm)
            [[ $# -ge 2 ]] || { usage; exit 2; }
            JXVM="$2"; shift 2 ;;
        --jxvm=*)
            JXVM="${1#--jxvm=}"; shift ;;
        --jobs|-j)
            [[ $# -ge 2 ]] || { usage; exit 2; }
            JOBS="$2"; shift 2 ;;
        --jobs=*)
            JOBS="${1#--jobs=}"; shift ;;
        -h|--help)
            usage; exit 0 ;;
        --)
            shift; NAMES+=("$@"); break ;;
        -*)
            echo "unknown option: $1" >&2; usage; exit 2 ;;
        *)
            NAMES+=("${1%.java}"); shift ;;
    esac
done

if [[ -z "$JOBS" ]]; then
    JOBS="$(nproc 2>/dev/null || echo 2)"
fi
if ! [[ "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: --jobs must be a positive integer, got '$JOBS'" >&2
    exit 2
fi

# Resolve the jxvm path (relative paths are relative to the current directory).
if [[ "$JXVM" != /* ]]; then
    if [[ -e "$JXVM" ]]; then
        JXVM="$(cd "$(dirname "$JXVM")" && pwd)/$(basename "$JXVM")"
    elif command -v "$JXVM" >/dev/null 2>&1; then
        JXVM="$(command -v "$JXVM")"
    fi
fi
if [[ ! -x "$JXVM" || -d "$JXVM" ]]; then
    echo "error: jxvm binary not found or not executable: $JXVM" >&2
    echo "       build it first (e.g. 'cargo build --release') or pass --jxvm PATH" >&2
    exit 2
fi

# --- make sure a JDK 17 is available --------------------------------------------
if ! command -v javac >/dev/null 2>&1 || ! command -v java >/dev/null 2>&1; then
    echo "javac/java not found; installing openjdk-17-jdk-headless..." >&2
    apt-get update && apt-get install -y openjdk-17-jdk-headless
fi

# --- select programs ------------------------------------------------------------
if [[ ${#NAMES[@]} -eq 0 ]]; then
    for f in "$JAVA_DIR"/*.java; do
        [[ -e "$f" ]] || continue
        n="$(basename "$f" .java)"
        NAMES+=("$n")
    done
fi
if [[ ${#NAMES[@]} -eq 0 ]]; then
    echo "error: no test programs found in $JAVA_DIR" >&2
    exit 2
fi
# De-duplicate while keeping order.
declare -A SEEN=()
UNIQUE=()
for n in "${NAMES[@]}"; do
    [[ -n "${SEEN[$n]:-}" ]] && continue
    SEEN["$n"]=1
    UNIQUE+=("$n")
done
NAMES=("${UNIQUE[@]}")
for n in "${NAMES[@]}"; do
    if [[ ! -f "$JAVA_DIR/$n.java" ]]; then
        echo "error: no such test program: $JAVA_DIR/$n.java" >&2
        exit 2
    fi
done

# --- known failures -------------------------------------------------------------
declare -A KNOWN=()
if [[ -f "$KNOWN_FAILURES_FILE" ]]; then
    while IFS= read -r line || [[ -n "$line" ]]; do
        line="${line%%#*}"
        read -r kname _ <<<"$line" || true
        [[ -n "${kname:-}" ]] && KNOWN["$kname"]=1
    done <"$KNOWN_FAILURES_FILE"
fi

# --- run ------------------------------------------------------------------------
mkdir -p "$OUT_DIR"
RESULTS_DIR="$(mktemp -d "$OUT_DIR/.results.XXXXXX")"
export CONFORMANCE_RESULTS_DIR="$RESULTS_DIR"
printf '%s\n' "${NAMES[@]}" | xargs -P "$JOBS" -I{} bash "$SCRIPT_DIR/conformance.sh" --run-one "$JXVM" {}

# --- report ---------------------------------------------------------------------
passed=0
failed=0
skipped=0
for n in "${NAMES[@]}"; do
    RES="$RESULTS_DIR/$n"
    status="$(cat "$RES/status" 2>/dev/null || echo missing)"
    if [[ "$status" == "compile" ]]; then
        echo "FAIL $n (javac failed)"
        head -n 20 "$RES/javac.log" | sed 's/^/    /'
        failed=$((failed + 1))
        continue
    fi
    if [[ -n "${KNOWN[$n]:-}" ]]; then
        if [[ "$status" == "pass" ]]; then
            echo "XPASS $n (remove it from KNOWN_FAILURES)"
            failed=$((failed + 1))
        else
            echo "XFAIL $n"
            skipped=$((skipped + 1))
        fi
        continue
    fi
    if [[ "$status" == "pass" ]]; then
        passed=$((passed + 1))
        continue
    fi
    failed=$((failed + 1))
    echo "FAIL $n${RES:+$( [[ -f "$RES/repeat" ]] && echo " (on $(cat "$RES/repeat"))")}"
    if [[ "$status" == "missing" ]]; then
        echo "    (no result recorded)"
        continue
    fi
    exp_rc="$(cat "$RES/expected.rc")"
    act_rc="$(cat "$RES/actual.rc")"
    if ! cmp -s "$RES/expected.out" "$RES/actual.out"; then
        echo "    stdout differs (--- expected/HotSpot, +++ actual/jxvm):"
        diff -u --label expected --label actual "$RES/expected.out" "$RES/actual.out" \
            | head -n 30 | sed 's/^/    /' || true
    fi
    note=""
    [[ "$act_rc" == "124" ]] && note=" (timeout after ${TIMEOUT_SECS}s)"
    echo "    exit code: expected $exp_rc, actual $act_rc$note"
    if [[ -s "$RES/expected.err" ]]; then
        echo "    expected stderr (first line): $(head -n 1 "$RES/expected.err")"
    fi
    if [[ -s "$RES/actual.err" ]]; then
        echo "    actual stderr (first lines):"
        head -n 5 "$RES/actual.err" | sed 's/^/      /'
    fi
done

echo "conformance: $passed passed, $failed failed, $skipped skipped"
rm -rf "$OUT_DIR/results"
mv "$RESULTS_DIR" "$OUT_DIR/results" 2>/dev/null || true
if [[ $failed -gt 0 ]]; then
    exit 1
fi
exit 0
