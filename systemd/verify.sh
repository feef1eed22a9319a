#!/usr/bin/env bash
# Runs `systemd-analyze verify` on a unit (default: systemd/companion.service) and fails on
# any line it prints, warning or error. The unit is checked inside a scratch root holding
# systemd's own units and a stand-in for its ExecStart program, so it passes or fails on
# its own merits, not on what this machine has installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
unit=${1:-$here/companion.service}
name=$(basename "$unit")

if ! command -v systemd-analyze >/dev/null; then
    echo "verify.sh: systemd-analyze not found (apt-get install systemd)" >&2
    exit 2
fi
units=""
for candidate in /usr/lib/systemd/system /lib/systemd/system; do
    if [ -d "$candidate" ]; then units=$candidate; break; fi
done
if [ -z "$units" ]; then
    echo "verify.sh: systemd's own units not found in /usr/lib/systemd/system" >&2
    exit 2
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/lib/systemd" "$root/etc/systemd/system"
cp -r "$units" "$root/usr/lib/systemd/system"
cp "$unit" "$root/etc/systemd/system/$name"
program=$(sed -n 's/^ExecStart=[-@:+!]*\([^ ]*\).*/\1/p' "$unit" | head -n 1)
if [ -n "$program" ]; then
    mkdir -p "$root$(dirname "$program")"
    printf '#!/bin/sh\n' > "$root$program"
    chmod +x "$root$program"
fi

status=0
output=$(systemd-analyze verify --root="$root" "/etc/systemd/system/$name" 2>&1) || status=$?
if [ -n "$output" ] || [ "$status" -ne 0 ]; then
    printf '%s\n' "$output" | sed "s|$root||g" >&2
    echo "verify.sh: $name has warnings or errors (exit $status)" >&2
    exit 1
fi
echo "verify.sh: $name verified, no warnings"
