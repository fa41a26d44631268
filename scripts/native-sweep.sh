#!/usr/bin/env bash
# The sweep of the JDK's native methods (issue 17, item 8): every `native` method of every
# module of the JDK image and whether jxvm implements it. Prints per module the natives,
# implemented and missing, then the missing natives of the modules that must be complete
# (with --all: every missing native), each with its reason from tests/natives-missing.txt.
# Fails when a missing native is not listed there (by method, in the modules that must be
# complete) or when a line there names nothing missing. The logic is the Rust test
# crates/vm/tests/native_coverage.rs (reads lib/modules with crates/jimage and crates/classfile,
# asks the runtime's table of natives); `cargo test` runs it too.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/ensure-jdk.sh"
cd "$ROOT"
case "${1:-}" in
    --all) export NATIVE_SWEEP=all ;;
    "") ;;
    *) echo "usage: $0 [--all]" >&2; exit 2 ;;
esac
cargo test --release --quiet -p jxvm-vm --test native_coverage -- --nocapture --test-threads 1 2>&1 \
    | grep -v '^\.$\|^running 1 test$\|^test native_sweep \.\.\. ok$\|^test result: ok\|^$'
