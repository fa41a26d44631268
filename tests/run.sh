#!/usr/bin/env bash
# The project's test command: unit and integration tests of every crate, then the
# conformance suite (each program in tests/java/ run on HotSpot and on jxvm, compared).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/ensure-jdk.sh"
cd "$ROOT"
# jxvm's class cache (on by default, as java's -Xshare:auto) goes in a directory of this run's
# own, never the user's home (conformance.sh gives each of its runs a fresh one).
XDG_CACHE_HOME="$(mktemp -d "${TMPDIR:-/tmp}/jxvm-test-cache.XXXXXX")"
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
# Gates first: the tree is rustfmt-formatted and clippy-clean (warnings are errors).
for tool in rustfmt clippy; do
    cargo "${tool/rustfmt/fmt}" --version >/dev/null 2>&1 || rustup component add "$tool"
done
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo build --release --workspace
bash scripts/ensure-diod.sh  # diod and its tools: the independent 9P2000.L peer of the ninep and gateway tests
cargo test --release --workspace
# The sweep of the JDK's native methods: per module implemented/missing; every missing native
# listed with its reason in tests/natives-missing.txt (a few seconds; cargo test ran it too).
bash scripts/native-sweep.sh | sed -n '/^module /,/^total /p'
bash tests/conformance.sh --jobs "$(nproc)"
# The same programs with every method compiled before its first run: compiled code must do
# all the interpreter does (issue 18).
CONFORMANCE_JXVM_FLAGS=-Xcomp bash tests/conformance.sh --jobs "$(nproc)"
# A real test suite: JUnit 5 runs Commons Codec's tests on HotSpot and on jxvm, same counts.
bash tests/workloads/junit.sh
JUNIT_JXVM_FLAGS=-Xcomp bash tests/workloads/junit.sh
# Maven Surefire forks jxvm (through a --make-home JAVA_HOME): same test counts as HotSpot.
bash tests/workloads/surefire.sh
# The collector's reference maps, checked against real execution: every interpreter frame is
# verified at every call on a sample of programs.
JXVM_VERIFY_FRAMES=1 bash tests/conformance.sh --jobs "$(nproc)" StreamsCollectors LambdaCapture ExceptionsNested \
    MethodHandlesBasic VarHandles AlgoGraph Records TryWithResources SwitchString StackTraceFrames
# Threaded programs 20 times in a row: no failure and no hang in any run (finalizers run on
# the finalizer thread).
CONFORMANCE_REPEAT=20 bash tests/conformance.sh --jobs "$(nproc)" $(cd tests/java && ls Thread*.java Concurrent*.java GcThreads.java GcThreadsSmallHeap.java AtomicsAndConcurrentQueues.java Finalize*.java | sed 's/\.java$//')
# The whole suite again with the collector under stress and verification: a young collection
# at every allocation (and frequent full ones), the write barrier's remembered set checked, and
# the heap and every frame verified after collections (see README, Diagnostics). Methods are
# compiled before they first run, so the collector meets compiled frames (and the
# interpreter's, where compiled code leaves).
CONFORMANCE_JXVM_FLAGS=-Xcomp JXVM_GC_STRESS=1 JXVM_GC_VERIFY=1 CONFORMANCE_TIMEOUT=600 bash tests/conformance.sh --jobs "$(nproc)"
