#!/usr/bin/env bash
# Makes sure a JDK 17 (javac, java, lib/modules) is installed; installs Debian's if not.
# Sourced by the project's scripts; exports JAVA_HOME.
set -euo pipefail
if ! command -v javac >/dev/null 2>&1 || ! javac -version 2>&1 | grep -q ' 17\.' \
    || [[ ! -f /usr/lib/jvm/java-17-openjdk-amd64/lib/modules && -z "${JAVA_HOME:-}" ]]; then
    echo "Installing OpenJDK 17 (openjdk-17-jdk-headless)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq openjdk-17-jdk-headless >&2
fi
if [[ -z "${JAVA_HOME:-}" || ! -f "${JAVA_HOME}/lib/modules" ]]; then
    if [[ -f /usr/lib/jvm/java-17-openjdk-amd64/lib/modules ]]; then
        export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
    else
        JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
        export JAVA_HOME
    fi
fi
