#!/usr/bin/env bash
# The project's test command: unit and integration tests of every crate, then the
# conformance suite (each program in tests/java/ run on HotSpot and on jxvm, compared).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/ensure-jdk.sh"
cd "$ROOT"
cargo build --release --workspace
cargo test --release --workspace
bash tests/conformance.sh --jobs "$(nproc)"
# The collector's reference maps, checked against real execution: every interpreter frame is
# verified at every call on a sample of programs.
JXVM_VERIFY_FRAMES=1 bash tests/conformance.sh --jobs "$(nproc)" StreamsCollectors LambdaCapture ExceptionsNested \
    MethodHandlesBasic VarHandles AlgoGraph Records TryWithResources SwitchString StackTraceFrames
