#!/usr/bin/env python3
"""HTTP checks for scripts/image-test.sh (the container image against a host build).

  compare HOST CONTAINER        GET /healthz, /, /readyz, /openapi.yaml and every POST example of
                                openapi.yaml: 200 from the container, same status, Content-Type
                                and body bytes as the host build
  burst CONTAINER N             N keep-alive requests over 8 connections (the same requests)
  stop CONTAINER HOST NAME      a request in flight while `podman stop -t 10 NAME` runs: the body
                                goes in two parts, the stop starts between them; the request must
                                complete and the stop must end within 2 s
  header URL PATH NAME [ORIGIN] print response header NAME (empty when absent) for GET PATH
  status URL PATH BYTES         print the status of a POST of a JSON body of BYTES bytes

HOST and CONTAINER are host:port. The examples are the `example` (or `examples.*.value`) of each
POST operation's requestBody in openapi.yaml (else its schema's `example` or `examples`), sent as
compact JSON, the same bytes to both.
"""
import http.client
import os
import socket
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trellis_harness import example_requests as requests, fail, failures, ok, post_examples  # noqa: E402


def split(address):
    host, port = address.rsplit(":", 1)
    return host, int(port)


def request(address, method, path, body=None, headers=None, connection=None):
    own = connection is None
    connection = connection or http.client.HTTPConnection(*split(address), timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read(), response
    finally:
        if own:
            connection.close()



def compare(host, container):
    examples = 0
    for label, method, path, body, headers in requests():
        examples += method == "POST"
        want = request(host, method, path, body, headers)[:3]
        got = request(container, method, path, body, headers)[:3]
        if got[0] != 200:
            fail(f"{label}: the container answered {got[0]}: {got[2][:300]!r}")
        elif got != want:
            fail(f"{label}: the container and the host build differ: status {got[0]} vs {want[0]}, "
                 f"Content-Type {got[1]} vs {want[1]}, {len(got[2])} vs {len(want[2])} bytes\n"
                 f"  container: {got[2][:300]!r}\n  host:      {want[2][:300]!r}")
        else:
            ok(f"{label}: 200, {len(got[2])} bytes, identical to the host build")
    if examples == 0:
        print("note: openapi.yaml has no POST request examples yet; only the GET endpoints were compared")
    else:
        ok(f"{examples} POST examples from openapi.yaml byte-identical to the host build")


def burst(container, total):
    cases = requests()
    errors, lock = [], threading.Lock()
    counts = [total // 8 + (1 if i < total % 8 else 0) for i in range(8)]

    def worker(index, count):
        connection = http.client.HTTPConnection(*split(container), timeout=10)
        try:
            for n in range(count):
                label, method, path, body, headers = cases[(index + n) % len(cases)]
                status = request(container, method, path, body, headers, connection)[0]
                if status != 200:
                    with lock:
                        errors.append(f"{label}: {status}")
        except (OSError, http.client.HTTPException) as error:
            with lock:
                errors.append(f"connection {index}: {error!r}")
        finally:
            connection.close()

    start = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(counts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    if errors:
        fail(f"burst: {len(errors)} failed requests, first: {errors[0]}")
    else:
        ok(f"burst: {total} requests over 8 keep-alive connections in {elapsed:.2f} s, all 200")


def read_response(sock, deadline):
    data = b""
    sock.settimeout(max(0.1, deadline - time.monotonic()))
    while True:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        if sep:
            lengths = [line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")[1:]
                       if line.lower().startswith(b"content-length:")]
            if lengths and len(body) >= int(lengths[0]):
                break
    return data


def stop(container, host, name):
    examples = post_examples()
    if examples:
        label, path, content_type, body = examples[0]
        expected = request(host, "POST", path, body, {"Content-Type": content_type})[:3]
    else:
        # No feature endpoint yet: any POST that the server reads to its end before answering.
        label, path, content_type, body = "POST /", "/", "application/json", b'{"in":"flight","padding":"' + b"x" * 64 + b'"}'
        expected = None
    half = len(body) // 2
    head = (f"POST {path} HTTP/1.1\r\nHost: {container}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    sock = socket.create_connection(split(container), timeout=5)
    sock.sendall(head + body[:half])
    time.sleep(0.3)  # the server has the headers: the request is in flight
    started = time.monotonic()
    stopper = subprocess.Popen(["podman", "stop", "-t", "10", name], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    if stopper.poll() is not None:
        fail(f"stop: podman stop returned ({stopper.returncode}) while a request was still in flight")
    sock.setblocking(False)
    try:
        early = sock.recv(65536)
    except BlockingIOError:
        early = None
    sock.setblocking(True)
    if early is not None:
        fail(f"stop: the server answered before the body was complete ({early[:120]!r}); the test proves nothing")
    sock.sendall(body[half:])
    response = read_response(sock, time.monotonic() + 5)
    sock.close()
    try:
        code = stopper.wait(timeout=15)
    except subprocess.TimeoutExpired:
        stopper.kill()
        code = None
    elapsed = time.monotonic() - started
    head, _, payload = response.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].decode(errors="replace")
    if not status_line.startswith("HTTP/1.1 "):
        fail(f"stop: the in-flight request got no response ({response[:200]!r})")
    elif expected is not None and (int(status_line.split()[1]), payload) != (expected[0], expected[2]):
        fail(f"stop: {label} answered {status_line!r} with {payload[:200]!r} during the drain, "
             f"not the host build's {expected[0]} and {len(expected[2])} bytes")
    else:
        ok(f"stop: the in-flight {label} completed during the drain ({status_line}, {len(payload)} bytes)")
    if code != 0:
        fail(f"stop: podman stop exited {code}: {stopper.stderr.read().strip() if code is not None else 'timed out'}")
    if elapsed >= 2.0:
        fail(f"stop: podman stop took {elapsed:.2f} s (limit 2 s)")
    else:
        ok(f"stop: podman stop -t 10 finished in {elapsed:.2f} s (limit 2 s)")
    print(f"stop-seconds={elapsed:.2f}")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "compare":
        compare(*args)
    elif command == "burst":
        burst(args[0], int(args[1]))
    elif command == "stop":
        stop(*args)
    elif command == "header":
        address, path, name = args[:3]
        headers = {"Origin": args[3]} if len(args) > 3 else {}
        response = request(address, "GET", path, headers=headers)[3]
        print(response.getheader(name) or "")
    elif command == "status":
        address, path, size = args[0], args[1], int(args[2])
        body = b'{"padding":"' + b"x" * max(0, size - 14) + b'"}'
        print(request(address, "POST", path, body, {"Content-Type": "application/json"})[0])
    else:
        raise SystemExit(f"unknown command {command}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
