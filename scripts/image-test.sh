#!/usr/bin/env bash
# make image-test: build the real Dockerfile with podman and run the image as a user would.
#
# There is no Docker engine or registry here: rootful podman builds the Dockerfile, on base images
# made locally once (debian:bookworm-slim by debootstrap; a swift:6.x-bookworm builder from the
# official image's package list plus the local Swift toolchain). The state (podman's two config
# files, its storage, the base images) lives in $TRELLIS_IMAGE_STATE, outside the repo, and later
# runs reuse it. Only the FROM lines of a temporary copy of the Dockerfile are rewritten.
#
# Checks (each one prints "ok: ..." or "FAIL: ..."): /healthz through the published port; the GET
# endpoints and every POST example of openapi.yaml byte-identical to a host build; non-root PID 1;
# `podman healthcheck run`; --read-only and --cap-drop ALL (the main container); TRELLIS_PORT / PORT and the other settings inside the container;
# `podman stop` with a request in flight. With TRELLIS_RECORD=1, records the image size and memory in BENCHMARKS.md.
#
# Environment: TRELLIS_IMAGE_STATE (default /var/cache/trellis-image-test),
# TRELLIS_IMAGE_REBUILD_BASE=1 (remake the base images), TRELLIS_DEBIAN_MIRROR (default: the
# Debian mirror in this machine's apt sources), TRELLIS_IMAGE_BURST (requests, default 5000).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=${TRELLIS_IMAGE_STATE:-/var/cache/trellis-image-test}
BURST=${TRELLIS_IMAGE_BURST:-5000}
IMAGE=localhost/trellis:image-test
DEBIAN_IMAGE=localhost/debian:bookworm-slim
PREFIX=trellis-image-test # container names, stage tags
# The official swift:6.x-bookworm image's apt-get install list (swift-docker 6.3/debian/12).
SWIFT_IMAGE_PACKAGES="binutils libicu-dev libcurl4-openssl-dev libedit-dev libsqlite3-dev libncurses-dev \
libpython3-dev libxml2-dev pkg-config uuid-dev tzdata git gcc libstdc++-12-dev"
# Toolchain parts a build never uses, left out of the builder image (about 1.2 GB).
TOOLCHAIN_EXCLUDES=('./bin/lldb*' './lib/liblldb*' ./bin/sourcekit-lsp ./lib/libsourcekitdInProc.so
    ./bin/docc ./share/docc ./lib/swift/embedded ./lib/swift_static/embedded ./bin/clangd)
BASE_RECIPE=1 # bump when the base image recipe below changes: the next run remakes them

say() { echo "== $*"; }
ok() { echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
check() { python3 "$ROOT/scripts/image-test.py" "$@"; }

[ "$(id -u)" -eq 0 ] || fail "image-test needs root (rootful podman, debootstrap, chroot)"
command -v swift >/dev/null || fail "no swift on PATH (the builder image copies the local toolchain)"

# --- Tools -------------------------------------------------------------------------------------
missing=()
for tool in podman:podman buildah:buildah runc:runc debootstrap:debootstrap newuidmap:uidmap \
    slirp4netns:slirp4netns curl:curl unshare:util-linux; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
fi
python3 -c 'import yaml' 2>/dev/null || python3 -m pip install -q pyyaml

# --- Podman's state, outside the repo ---------------------------------------------------------
mkdir -p "$STATE"
cat >"$STATE/containers.conf" <<'EOF'
# Written by trellis scripts/image-test.sh (see ../shared/notes/containers.md).
[containers]
# No CAP_SYS_RESOURCE on these machines: keep the limits podman sets within the current ones.
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
# crun 1.8 refuses this machine's hybrid cgroup layout; there is no systemd.
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
cat >"$STATE/storage.conf" <<EOF
# Written by trellis scripts/image-test.sh. Never mix --root flags with this file.
[storage]
driver = "overlay"
graphroot = "$STATE/storage"
runroot = "$STATE/run"
EOF
export CONTAINERS_CONF=$STATE/containers.conf CONTAINERS_STORAGE_CONF=$STATE/storage.conf

# One run at a time per state directory (other worktrees may run make test too): the image tag,
# the container names and the base images are shared.
exec 9>"$STATE/lock"
if ! flock -n 9; then
    say "waiting for another image-test run using $STATE"
    flock -w 1800 9 || fail "another image-test run has held $STATE/lock for 30 minutes"
fi

tmp=$(mktemp -d /tmp/trellis-image-test.XXXXXX)
containers=()
host_pid=
cleanup() {
    local status=$?
    for container in "${containers[@]}"; do
        podman rm -f -t 0 "$container" >/dev/null 2>&1 || true
    done
    if [ -n "$host_pid" ]; then
        kill "$host_pid" 2>/dev/null || true
        wait "$host_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
    flock -u 9 2>/dev/null || true # also held by any process that inherited fd 9
    [ $status -eq 0 ] || echo "FAIL: make image-test failed (exit $status); podman state in $STATE" >&2
}
trap cleanup EXIT

# Containers left by an interrupted run, and buildah's working containers left by an interrupted
# build (they would keep old layers from the prune below). The lock makes them all leftovers.
podman ps -a --format '{{.Names}}' | grep "^$PREFIX-" | xargs -r podman rm -f -t 0 >/dev/null || true
buildah rm --all >/dev/null 2>&1 || true

# --- Base images, made once -------------------------------------------------------------------
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
swift_version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -1)
swift_minor=$(cut -d. -f1,2 <<<"$swift_version")
SWIFT_IMAGE=localhost/swift:$swift_minor-bookworm
apt_uri() { # the first URI in this machine's apt sources matching $1
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
        grep -E '^(deb |URIs:)' | grep -oE "https?://[^ ]+/$1/?( |\$)" | head -1 | tr -d ' ' || true
}
mirror=${TRELLIS_DEBIAN_MIRROR:-$(apt_uri debian)}
mirror=${mirror:-http://deb.debian.org/debian}
mirror=${mirror%/}
security=$(apt_uri debian-security)
security=${security:-$mirror-security}
base_key="recipe=$BASE_RECIPE mirror=$mirror swift=$swift_version toolchain=$toolchain packages=$SWIFT_IMAGE_PACKAGES"

make_debian() {
    local rootfs=$tmp/debian
    say "making $DEBIAN_IMAGE: debootstrap --variant=minbase bookworm from $mirror"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
        { tail -20 "$tmp/debootstrap.log"; fail "debootstrap failed"; }
    # Slim it as the official image is made (debuerreotype): no docs, man pages or locales now or
    # after later installs, lean apt settings, the archive and security sources.
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
# The "slim" variant: files containers do not need stay out, also for later installs.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
    echo force-unsafe-io >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"
    cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
    echo 'Acquire::GzipIndexes "true";' >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
    echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
    echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
    printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
    chmod 755 "$rootfs/usr/sbin/policy-rc.d"
    rm -f "$rootfs/etc/apt/sources.list"
    cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$rootfs"/usr/share/{groff,info,linda,man}/* "$rootfs"/usr/share/lintian/overrides/*
    find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
        "$rootfs"/var/log/* "$rootfs"/etc/hostname "$rootfs"/etc/resolv.conf "$rootfs"/debootstrap
    : >"$rootfs/etc/machine-id"
    tar --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' \
        -C "$rootfs" -cf "$STATE/debian-bookworm-slim.tar" .
    rm -rf "$rootfs"
    podman rmi -f "$DEBIAN_IMAGE" >/dev/null 2>&1 || true
    podman import --quiet --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' "$STATE/debian-bookworm-slim.tar" "$DEBIAN_IMAGE" >/dev/null
}

make_swift() {
    local rootfs=$tmp/swift prefix=/opt/swift/$swift_minor
    say "making $SWIFT_IMAGE: $DEBIAN_IMAGE + the official image's packages + the local Swift $swift_version"
    mkdir -p "$rootfs"
    tar -C "$rootfs" -xf "$STATE/debian-bookworm-slim.tar"
    cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
    # A private mount namespace: /proc and /dev exist in the chroot only while apt-get runs.
    # shellcheck disable=SC2016 # expanded by the inner shell
    unshare --mount --propagation private -- sh -c '
        set -e
        mount -t proc proc "$1/proc"
        mount --rbind /dev "$1/dev"
        chroot "$1" /usr/bin/env DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \
            sh -c "apt-get -q update && apt-get -q install -y $2 && rm -r /var/lib/apt/lists/*"
    ' sh "$rootfs" "$SWIFT_IMAGE_PACKAGES" >"$tmp/swift-apt.log" 2>&1 ||
        { tail -20 "$tmp/swift-apt.log"; fail "installing the Swift image's packages failed"; }
    rm -f "$rootfs/etc/resolv.conf"
    rm -rf "${rootfs:?}"/var/log/*
    # The toolchain where the official image puts it, with the same /usr/bin links and ENV.
    mkdir -p "$rootfs$prefix/usr"
    (cd "$toolchain" && tar -cf - "${TOOLCHAIN_EXCLUDES[@]/#/--exclude=}" .) | tar -C "$rootfs$prefix/usr" -xf -
    for tool in "$rootfs$prefix"/usr/bin/*; do
        ln -sf "$prefix/usr/bin/${tool##*/}" "$rootfs/usr/bin/${tool##*/}"
    done
    podman rmi -f "$SWIFT_IMAGE" >/dev/null 2>&1 || true
    tar --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -C "$rootfs" -cf - . |
        podman import --quiet \
            --change "ENV PATH=$prefix/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
            --change "ENV LD_LIBRARY_PATH=$prefix/usr/lib/swift/linux" \
            --change 'CMD ["bash"]' - "$SWIFT_IMAGE" >/dev/null
    rm -rf "$rootfs"
    podman run --rm --network none "$SWIFT_IMAGE" swift --version 2>&1 | grep -q "Swift version $swift_version" ||
        fail "$SWIFT_IMAGE does not run swift $swift_version"
}

base_seconds=
if [ "${TRELLIS_IMAGE_REBUILD_BASE:-0}" = 1 ] || [ "$(cat "$STATE/base-images.key" 2>/dev/null)" != "$base_key" ] ||
    ! podman image exists "$DEBIAN_IMAGE" || ! podman image exists "$SWIFT_IMAGE" ||
    [ ! -f "$STATE/debian-bookworm-slim.tar" ]; then
    started=$(now)
    rm -f "$STATE/base-images.key"
    make_debian
    make_swift
    base_seconds=$(since "$started")
    echo "$base_key" >"$STATE/base-images.key"
    printf 'seconds=%s\ndate=%s\n' "$base_seconds" "$(date -u +%FT%TZ)" >"$STATE/base-images.made"
    say "base images made in $base_seconds s"
else
    say "base images cached in $STATE ($DEBIAN_IMAGE, $SWIFT_IMAGE)"
fi

# --- Build the real Dockerfile, FROM lines pointed at the local images -------------------------
# swift:X-bookworm (X a prefix of the local version) and debian:bookworm-slim; any other base
# image, or a Swift version the local toolchain is not, fails here.
stages=() last_stage=
while read -r keyword image rest; do
    [ "${keyword^^}" = FROM ] || continue
    name=${image#docker.io/}
    name=${name#library/}
    if [[ $name =~ ^swift:([0-9.]+)-bookworm$ ]]; then
        want=${BASH_REMATCH[1]}
        [[ $swift_version == "$want" || $swift_version == "$want".* ]] ||
            fail "the Dockerfile builds FROM $image but the local toolchain is Swift $swift_version"
        target=$SWIFT_IMAGE
    elif [ "$name" = debian:bookworm-slim ]; then
        target=$DEBIAN_IMAGE
    elif printf '%s\n' "${stages[@]}" | grep -qx "$image"; then
        target=$image # an earlier stage
    else
        fail "the Dockerfile uses FROM $image: image-test can only make debian:bookworm-slim and swift:X-bookworm"
    fi
    echo "FROM $target${rest:+ $rest}" >>"$tmp/from-lines"
    last_stage=$(awk '{ if (toupper($1) == "AS") print $2 }' <<<"$rest")
    [ -n "$last_stage" ] && stages+=("$last_stage")
done < <(sed 's/\r$//' "$ROOT/Dockerfile")
[ -s "$tmp/from-lines" ] || fail "no FROM line in the Dockerfile"
awk -v lines="$tmp/from-lines" 'toupper($1) == "FROM" { getline replacement < lines; print replacement; next } { print }' \
    "$ROOT/Dockerfile" >"$tmp/Dockerfile"
diff <(grep -viE '^FROM ' "$ROOT/Dockerfile") <(grep -viE '^FROM ' "$tmp/Dockerfile") >/dev/null ||
    fail "rewriting the FROM lines changed other lines"

say "podman build (Dockerfile with: $(grep -iE '^FROM ' "$tmp/Dockerfile" | paste -sd';' | sed 's/;/; /g'))"
build() { # log file, podman build options
    local log=$1
    shift
    podman build --pull=never --network host --format docker --layers --force-rm -f "$tmp/Dockerfile" "$@" "$ROOT" \
        2>&1 | tee "$log" | { grep -E '^(\[[0-9/]+\] )?STEP|^COMMIT|rror' || true; } || fail "podman build failed (log above)"
}
started=$(now)
build "$tmp/build.log" -t "$IMAGE"
build_seconds=$(since "$started")
# RUN/COPY/ADD steps, and how many of them came from the layer cache.
read -r steps cached < <(awk '/^(\[[0-9\/]+\] )?STEP [0-9\/]+: / { step = ($0 ~ /STEP [0-9\/]+: (RUN|COPY|ADD) /); steps += step }
    /^--> Using cache/ && step { cached++; step = 0 } END { print steps + 0, cached + 0 }' "$tmp/build.log")
# Earlier named stages get tags too (all from the cache now), so that their layers (apt-get
# install, swift build) survive the prune of older builds' layers and serve the next run.
for stage in "${stages[@]}"; do
    [ "$stage" = "$last_stage" ] || build "$tmp/stage.log" --target "$stage" -t "localhost/$PREFIX-stage:$stage" >/dev/null
done
if [ "$cached" -lt "$steps" ]; then # a build that did real work: keep its figure for BENCHMARKS.md
    printf 'seconds=%s\ncached=%s\nsteps=%s\ndate=%s\n' "$build_seconds" "$cached" "$steps" "$(date -u +%FT%TZ)" \
        >"$STATE/build.made"
fi
podman image prune -f >/dev/null || echo "note: podman image prune failed; older layers stay in $STATE/storage"
ok "image built in $build_seconds s ($cached of $steps RUN/COPY steps from the layer cache)"

size_bytes=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_bytes=$(podman image inspect --format '{{.Size}}' "$DEBIAN_IMAGE")
size_mb=$(awk -v b="$size_bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
base_mb=$(awk -v b="$base_bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "image size: $size_mb MB ($IMAGE; its base $DEBIAN_IMAGE is $base_mb MB)"

# --- A host build to compare with -------------------------------------------------------------
say "host build: swift build -c release --static-swift-stdlib --product trellis"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product trellis >"$tmp/host-build.log" 2>&1) ||
    { tail -20 "$tmp/host-build.log"; fail "host build failed"; }
host_binary=$(cd "$ROOT" && swift build -c release --show-bin-path)/trellis
host_port=$(free_port)
"$host_binary" --host 127.0.0.1 --port "$host_port" --log off 2>"$tmp/host.err" &
host_pid=$!

wait_healthy() { # host:port, what
    for _ in $(seq 100); do
        curl -fsS -o /dev/null "http://$1/healthz" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
wait_healthy "127.0.0.1:$host_port" || { cat "$tmp/host.err"; fail "the host build did not answer /healthz"; }

run() { # name, podman run options...
    local name=$PREFIX-$1
    shift
    containers+=("$name")
    # Without systemd podman cannot add the healthcheck timer and says so; the rest is kept.
    podman run -d --name "$name" "$@" "$IMAGE" 2>"$tmp/run.err" >/dev/null ||
        { cat "$tmp/run.err"; fail "podman run $* failed"; }
    grep -v 'unable to get systemd connection' "$tmp/run.err" >&2 || true
}
# Log text goes through variables: `podman logs | grep -q` would fail under pipefail when grep
# stops reading early.
logs() { podman logs "$PREFIX-$1" 2>&1; }
stdout_of() { podman logs "$PREFIX-$1" 2>/dev/null; }
has() { grep -q -- "$2" <<<"$1"; } # text, pattern
healthcheck() { # container, what
    local output
    output=$(podman healthcheck run "$PREFIX-$1" 2>&1) || fail "podman healthcheck run ($2): exit $?: $output"
    [ "$(podman inspect --format '{{.State.Health.Status}}' "$PREFIX-$1" 2>/dev/null ||
        podman inspect --format '{{.State.Healthcheck.Status}}' "$PREFIX-$1")" = healthy ] ||
        fail "podman healthcheck run ($2): the container is not marked healthy"
    ok "podman healthcheck run: healthy ($2)"
}

# --- The image as a user runs it ---------------------------------------------------------------
say "podman run --read-only --cap-drop ALL -p 127.0.0.1:PORT:8080 (defaults)"
port=$(free_port)
# Rule: the image runs on a read-only root filesystem without any capability (it writes nothing).
run main --read-only --cap-drop ALL -p "127.0.0.1:$port:8080"
container=127.0.0.1:$port
wait_healthy "$container" || { logs main; fail "/healthz did not answer through 127.0.0.1:$port"; }
[ "$(curl -sS -o /dev/null -w '%{http_code}' "http://$container/healthz")" = 200 ] || fail "/healthz is not 200"
ok "/healthz answers 200 through the published port 127.0.0.1:$port"
has "$(logs main)" "listening on 0.0.0.0:8080" || { logs main; fail "the default container does not listen on 0.0.0.0:8080"; }

check compare "127.0.0.1:$host_port" "$container" || fail "the container's answers differ from the host build's (above)"

proc=$(podman exec "$PREFIX-main" cat /proc/1/status) || fail "podman exec cat /proc/1/status failed"
read -r _ uid euid _ <<<"$(grep '^Uid:' <<<"$proc")"
pid1=$(awk '/^Name:/ { print $2 }' <<<"$proc")
[ "$pid1" = trellis ] || fail "PID 1 in the container is '$pid1', not trellis"
[ "$uid" != 0 ] && [ "$euid" != 0 ] || fail "trellis runs as uid $uid (euid $euid): root"
ok "PID 1 is trellis, uid $uid (not root); podman top: $(podman top "$PREFIX-main" user pid args | tail -1 | xargs)"
cap_eff=$(awk '/^CapEff:/ { print $2 }' <<<"$proc")
[ "$cap_eff" = 0000000000000000 ] || fail "--cap-drop ALL: trellis has effective capabilities $cap_eff"
[ "$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$PREFIX-main")" = true ] ||
    fail "the main container's root filesystem is not read-only"
ok "--read-only --cap-drop ALL: root filesystem read-only, no effective capabilities, /healthz and the POST examples answered"
healthcheck main "defaults"
[ "$(check header "$container" /healthz Access-Control-Allow-Origin https://any.example)" = "*" ] ||
    fail "default CORS: no Access-Control-Allow-Origin: * for an Origin"
ok "default TRELLIS_CORS_ORIGINS (*): Access-Control-Allow-Origin: *"
access_lines=$(stdout_of main | grep -c '^{"time"' || true)
[ "$access_lines" -gt 0 ] || fail "default TRELLIS_LOG (json): no access-log line on the container's stdout"
ok "default TRELLIS_LOG (json): $access_lines access-log lines on stdout so far"

check burst "$container" "$BURST" || fail "the burst of requests failed"
memory=$(podman stats --no-stream --format '{{.MemUsage}}' "$PREFIX-main") || fail "podman stats failed"
memory=${memory%% /*}
[ -n "$memory" ] || fail "podman stats gave no memory figure"
# podman stats gives the cgroup's charge: mostly anonymous memory, as the binary's and libraries'
# pages already in the page cache are charged elsewhere. The process's own RSS, for comparison:
rss=$(podman exec "$PREFIX-main" cat /proc/1/status | awk '/^VmRSS:/ { rss = $2 } /^VmHWM:/ { hwm = $2 }
    END { printf "%.1f MB RSS, peak %.1f MB", rss * 1024 / 1e6, hwm * 1024 / 1e6 }')
echo "container memory after $BURST requests: $memory (podman stats --no-stream); trellis (PID 1): $rss"

say "podman run -e TRELLIS_PORT=9090 -e TRELLIS_LOG=off -e TRELLIS_CORS_ORIGINS=... -e TRELLIS_THREADS=1 -e TRELLIS_MAX_BODY_BYTES=64"
port2=$(free_port)
run settings -p "127.0.0.1:$port2:9090" -e TRELLIS_PORT=9090 -e TRELLIS_LOG=off \
    -e TRELLIS_CORS_ORIGINS=https://app.example -e TRELLIS_THREADS=1 -e TRELLIS_MAX_BODY_BYTES=64
wait_healthy "127.0.0.1:$port2" || { logs settings; fail "TRELLIS_PORT=9090: /healthz did not answer"; }
has "$(logs settings)" "listening on 0.0.0.0:9090 with 1 threads" ||
    { logs settings; fail "TRELLIS_PORT=9090 / TRELLIS_THREADS=1 not in effect"; }
ok "TRELLIS_PORT=9090 and TRELLIS_THREADS=1: listening on 0.0.0.0:9090 with 1 threads, /healthz 200"
healthcheck settings "TRELLIS_PORT=9090"
[ "$(check header "127.0.0.1:$port2" /healthz Access-Control-Allow-Origin https://app.example)" = https://app.example ] &&
    [ -z "$(check header "127.0.0.1:$port2" /healthz Access-Control-Allow-Origin https://other.example)" ] ||
    fail "TRELLIS_CORS_ORIGINS=https://app.example not in effect"
ok "TRELLIS_CORS_ORIGINS=https://app.example: allowed origin echoed, other origins get no CORS header"
[ "$(check status "127.0.0.1:$port2" / 65)" = 413 ] || fail "TRELLIS_MAX_BODY_BYTES=64: a 65-byte body is not 413"
ok "TRELLIS_MAX_BODY_BYTES=64: a 65-byte body answers 413"
[ -z "$(stdout_of settings)" ] || fail "TRELLIS_LOG=off: output on stdout anyway: $(stdout_of settings | head -3)"
ok "TRELLIS_LOG=off: no access-log lines on stdout"

say "podman run -e PORT=7070"
port3=$(free_port)
run port -p "127.0.0.1:$port3:7070" -e PORT=7070
wait_healthy "127.0.0.1:$port3" || { logs port; fail "PORT=7070: /healthz did not answer"; }
has "$(logs port)" "listening on 0.0.0.0:7070" || { logs port; fail "PORT=7070 not in effect"; }
ok "PORT=7070: listening on 0.0.0.0:7070, /healthz 200"
healthcheck port "PORT=7070"

say "podman stop -t 10 with a request in flight"
stop_output=$(check stop "$container" "127.0.0.1:$host_port" "$PREFIX-main") || { echo "$stop_output"; logs main | tail -5; fail "podman stop"; }
echo "$stop_output" | grep -v '^stop-seconds='
stop_seconds=$(sed -n 's/^stop-seconds=//p' <<<"$stop_output")
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$PREFIX-main")
[ "$exit_code" = 0 ] || { logs main | tail -5; fail "the container exited with $exit_code after podman stop, not 0"; }
has "$(logs main)" "signal 15: draining" || fail "trellis did not log the SIGTERM drain"
ok "exit code 0 after SIGTERM (trellis: signal 15: draining)"

# --- BENCHMARKS.md -----------------------------------------------------------------------------
made() { sed -n "s/^$2=//p" "$STATE/$1.made"; } # file, key
base_line=cached
if [ -f "$STATE/base-images.made" ]; then
    base_line="made in $(made base-images seconds) s on $(made base-images date)"
    [ -n "$base_seconds" ] || base_line="cached (made in $(made base-images seconds) s on $(made base-images date))"
fi
build_line="$build_seconds s this run ($cached of $steps RUN/COPY steps from the layer cache)"
if [ "$cached" -eq "$steps" ] && [ -f "$STATE/build.made" ]; then
    build_line="$build_line; the last build that compiled: $(made build seconds) s ($(made build cached) of $(made build steps) from the cache) on $(made build date)"
fi
# make test leaves the work tree as it was: the figures are recorded only when asked (TRELLIS_RECORD=1).
if [ "${TRELLIS_RECORD:-0}" = 1 ]; then
python3 - "$ROOT/BENCHMARKS.md" <<EOF
import os, sys
path = sys.argv[1]
section = """## Container image

- Command: \`make image-test\` (podman $(podman --version | awk '{print $3}'), rootful, on base images made locally; see docs/operations.md, Docker)
- Date: $(date -u +%F); $(nproc) CPUs shared with other builds, so timings are noisy
- Image size: **$size_mb MB** (\`podman image inspect\`; debian:bookworm-slim itself is $base_mb MB)
- Memory after a burst of $BURST requests (8 keep-alive connections): **$memory** (\`podman stats --no-stream\`: the
  container's cgroup, the binary's shared file pages not counted); trellis itself: $rss (/proc/1/status)
- Image build: $build_line
- Base images (debian:bookworm-slim, swift:$swift_minor-bookworm): $base_line
- \`podman stop -t 10\` with a request in flight: ${stop_seconds} s, exit code 0
"""
header = ("# Benchmarks\n\nFigures from \`make bench\` on this project's machines. They are shared and noisy: "
          "compare the ratio\nwithin one run, not absolute numbers across runs.\n\n")
text = open(path).read() if os.path.exists(path) else header
marker = "## Container image"
if marker in text:
    start = text.index(marker)
    end = text.find("\n## ", start + 1)
    text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
else:
    text = text.rstrip("\n") + "\n\n" + section
open(path, "w").write(text)
EOF
ok "recorded in BENCHMARKS.md (## Container image)"
else
ok "not recorded (TRELLIS_RECORD=1 writes the figures into BENCHMARKS.md)"
fi
echo "image-test passed: image $size_mb MB, memory $memory (trellis ${rss%%,*}), build $build_seconds s, stop $stop_seconds s"
