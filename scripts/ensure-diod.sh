#!/usr/bin/env bash
# Makes sure diod (the 9P2000.L file server, Debian package `diod`) and its client tools are
# installed; installs Debian's if not. The ninep and gateway tests run it as an independent peer.
set -euo pipefail
if ! command -v diod >/dev/null 2>&1 && [[ ! -x /usr/sbin/diod ]]; then
    echo "Installing diod (9P2000.L server)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq diod >&2
fi
