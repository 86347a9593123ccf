#!/usr/bin/env bash
# Checks that every shared library a binary loads comes from the given Debian packages or from
# what they depend on: what the Dockerfile's runtime stage installs on debian:bookworm-slim.
set -euo pipefail
binary=$1; shift
allowed=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "$@" libc6 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u)
status=0
while read -r library; do
    package=$(dpkg -S "$(readlink -f "$library")" 2>/dev/null | head -1 | cut -d: -f1) ||
        package=$(dpkg -S "$library" 2>/dev/null | head -1 | cut -d: -f1) || true
    if [ -z "$package" ] || ! grep -qx "$package" <<<"$allowed"; then
        echo "not provided by the runtime stage: $library (${package:-no package})"
        status=1
    fi
done < <(ldd "$binary" | awk '/=>/ { print $3 } !/=>/ && /^\s*\// { print $1 }')
[ $status -eq 0 ] && echo "$binary: every library comes from $* (or their dependencies)"
exit $status
