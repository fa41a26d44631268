#!/usr/bin/env bash
# Builds jxvm and runs a real Java program on it: examples/Hello.java by default, or the
# example named as the first argument (e.g. `scripts/run-example.sh Wordcount`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/ensure-jdk.sh"
NAME="${1:-Hello}"
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
OUT="$ROOT/target/examples-classes"
mkdir -p "$OUT"
javac --release 17 -d "$OUT" "$ROOT/examples/$NAME.java"
shift || true
exec "$ROOT/target/release/jxvm" -cp "$OUT" "$NAME" "$@"
