#!/usr/bin/env bash
# Instructions per request, counted by callgrind (repeatable on a shared machine, unlike time):
#   bench/callgrind/run.sh BINARY WORKLOAD N
# runs BINARY (a release trellis; stripped, since valgrind can't read Swift's debug info) under
# callgrind with one thread, sends N keep-alive requests of WORKLOAD (a short name from bench/run.py's
# bodies(): healthz, flow7, outline20, rows20, sections2, sections50, drawer, flow24k, flow7text, flow9chip, rows20search, outline20search, rows10ksearch, outline10ksearch, measure3, batch3, ...), and prints the instructions collected. Run it with N = 0 and N = 2000 and take
# (difference) / 2000 as the cost of one request.
set -euo pipefail
binary=$1 workload=$2 n=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
strip -o "$work/trellis" "$binary"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Deterministic hashing: the per-process seed moves a run by a few hundred instructions (a benchmark only).
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/trellis" --port "$port" --threads 1 --log off \
    >/dev/null 2>"$work/valgrind.log" &
pid=$!
python3 "$here/drive.py" "$port" "$n" "$workload"
kill -TERM "$pid"
wait "$pid" || true
sed -n 's/.*Collected : //p' "$work/valgrind.log"
rm -rf "$work"
