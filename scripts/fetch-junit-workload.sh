#!/usr/bin/env bash
# Fetches the JUnit workload (tests/workloads/junit.sh) from Maven Central: the JUnit 5
# console launcher and Apache Commons Codec with its published test classes, at pinned
# versions, each checked against its SHA-256. Idempotent: files already present with the
# right digest are kept. Everything goes to a cache outside git, $JXVM_WORKLOADS or
# target/workloads/junit (target/ is ignored); nothing downloaded is committed.
#
# The test classes are also unpacked into <cache>/commons-codec/src/test/resources, the
# layout of a Maven checkout: some tests read their data files as resources from a class path
# directory and others from that relative path, so the workload runs there.
#
# Prints the cache directory on stdout.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${JXVM_WORKLOADS:-$ROOT/target/workloads}/junit"
CENTRAL="https://repo1.maven.org/maven2"

# groupId:artifactId:version[:classifier] sha256
ARTIFACTS=(
    "org.junit.platform:junit-platform-console-standalone:1.14.1 a09c656d60ada792cf12ed1e8dc7ead3edc98dde034332e97dfcb5b4268b9072"
    "commons-codec:commons-codec:1.17.1 f9f6cb103f2ddc3c99a9d80ada2ae7bf0685111fd6bffccb72033d1da4e6ff23"
    "commons-codec:commons-codec:1.17.1:tests 26640223a63a514d3099aa94dc1ce3140a52ae32e0fa4932d40788732c437933"
    "org.apache.commons:commons-lang3:3.14.0 7b96bf3ee68949abb5bc465559ac270e0551596fa34523fddf890ec418dde13c"
    "commons-io:commons-io:2.16.1 f41f7baacd716896447ace9758621f62c1c6b0a91d89acee488da26fc477c84f"
    "org.hamcrest:hamcrest:2.2 5e62846a89f05cd78cd9c1a553f340d002458380c320455dd1f8fc5497a8a1c1"
)

sha256_ok() { [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$2" ]]; }

# Downloads one artifact to $2 (curl from Central, else Maven's own client), then checks it.
fetch() {
    local coord="$1" out="$2" sum="$3"
    IFS=: read -r group artifact version classifier <<<"$coord"
    local file="$artifact-$version${classifier:+-$classifier}.jar"
    local url="$CENTRAL/${group//.//}/$artifact/$version/$file"
    echo "fetching $coord" >&2
    rm -f "$out.part"
    if ! curl -fsSL --retry 3 --connect-timeout 30 -o "$out.part" "$url"; then
        echo "curl failed; trying mvn dependency:copy" >&2
        local tmp
        tmp="$(mktemp -d)"
        (cd "$tmp" && mvn -q -B dependency:copy \
            "-Dartifact=$group:$artifact:$version${classifier:+:jar:$classifier}" \
            "-DoutputDirectory=$tmp/out" >&2)
        mv "$tmp/out/$file" "$out.part"
        rm -rf "$tmp"
    fi
    if ! sha256_ok "$out.part" "$sum"; then
        echo "SHA-256 mismatch for $coord ($url)" >&2
        rm -f "$out.part"
        exit 1
    fi
    mv "$out.part" "$out"
}

mkdir -p "$DEST/jars"
for entry in "${ARTIFACTS[@]}"; do
    coord="${entry% *}"
    sum="${entry#* }"
    IFS=: read -r _ artifact version classifier <<<"$coord"
    jar="$DEST/jars/$artifact-$version${classifier:+-$classifier}.jar"
    sha256_ok "$jar" "$sum" || fetch "$coord" "$jar" "$sum"
done

tests_jar="$DEST/jars/commons-codec-1.17.1-tests.jar"
res="$DEST/commons-codec/src/test/resources"
stamp="$DEST/commons-codec/.unpacked"
if [[ "$(cat "$stamp" 2>/dev/null)" != "$(basename "$tests_jar")" ]]; then
    rm -rf "$DEST/commons-codec"
    mkdir -p "$res"
    unzip -q -o "$tests_jar" -d "$res"
    basename "$tests_jar" >"$stamp"
fi
echo "$DEST"
