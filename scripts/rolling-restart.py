#!/usr/bin/env python3
"""make rolling-restart-test: three Trellis replicas behind HAProxy, restarted one after the other under load.

The replicas are the release binary on loopback ports with deploy/kubernetes/configmap.yaml's
environment (host and port changed, access log off). HAProxy (Debian's) checks GET /readyz with
the readiness probe's timings from deploy/kubernetes/deployment.yaml (inter = periodSeconds,
fall = failureThreshold, rise = successThreshold, timeout check = timeoutSeconds) and never retries
a request (`retries 0`, as kube-proxy), so a refused connection would reach the client. A client
sends a steady mix of every endpoint (the POST examples of openapi.yaml and the GETs) over
keep-alive connections for the whole run. Each replica in turn gets SIGTERM, must exit 0 within
terminationGracePeriodSeconds, and is started again on its port; the next one goes once HAProxy
has it back up. Passes with zero failed requests and zero 5xx; with TRELLIS_RECORD=1 it writes the
figures into BENCHMARKS.md ("## Rolling restart").

  rolling-restart.py BINARY [--rate N] [--bench PATH] [--shutdown-delay S]
"""
import argparse
import datetime
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import yaml

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trellis_harness import ROOT, StartError, Trellis, example_requests, fatal, free_port, ok, stop  # noqa: E402
from trellis_harness import http_status  # noqa: E402

DEPLOY = os.path.join(ROOT, "deploy", "kubernetes")
REPLICAS = 3
CLIENTS = 4
WARM_SECONDS = 3  # load before the first restart and after the last
SETTLE_SECONDS = 1  # between one replica back up and the next SIGTERM
RUN_LIMIT_SECONDS = 180  # the whole run, whatever happens


def manifests():
    with open(os.path.join(DEPLOY, "deployment.yaml")) as f:
        deployment = yaml.safe_load(f)
    with open(os.path.join(DEPLOY, "configmap.yaml")) as f:
        config = yaml.safe_load(f)["data"]
    pod = deployment["spec"]["template"]["spec"]
    return pod, pod["containers"][0]["readinessProbe"], config


class Replica:
    """One trellis on a port of its own, with the ConfigMap's environment, started again on that port."""

    def __init__(self, binary, index, environment):
        self.binary, self.index, self.port = binary, index, free_port()
        self.environment = dict(environment)
        # The ConfigMap's operations port is one per pod: each replica gets a free one of its own.
        if environment.get("TRELLIS_OPS_PORT", "0") != "0":
            self.environment["TRELLIS_OPS_PORT"] = str(free_port())
        # The uploaded fonts' folder is an emptyDir per pod: each replica gets a temporary folder of its own.
        if "TRELLIS_FONT_STORE_DIR" in environment:
            import atexit
            import shutil
            import tempfile
            folder = tempfile.mkdtemp(prefix=f"trellis-fonts-{index}-")
            atexit.register(shutil.rmtree, folder, True)
            self.environment["TRELLIS_FONT_STORE_DIR"] = folder
        self.server = None

    @property
    def process(self):
        return self.server.process

    def start(self):
        """Starts it; returns the seconds until it served (its fonts loaded, /readyz 200)."""
        try:
            self.server = Trellis(self.binary, port=self.port, env=self.environment, timeout=10)
        except StartError as error:
            fatal(f"replica {self.index}: {error}")
        if http_status(self.port, "GET", "/readyz", timeout=1) != 200:
            fatal(f"replica {self.index} listens but /readyz is not 200")
        return self.server.start_seconds


class HAProxy:
    def __init__(self, directory, replicas, probe, timeouts):
        self.port = free_port()
        self.socket = os.path.join(directory, "haproxy.sock")
        servers = "\n".join(f"    server r{r.index} 127.0.0.1:{r.port} check" for r in replicas)
        config = f"""global
    maxconn 1000
    stats socket {self.socket} mode 600 level admin

defaults
    mode http
    timeout connect 1s
    timeout client {timeouts['client']}s
    timeout server {timeouts['server']}s
    # Idle keep-alive connections from the client: closed before Trellis's header timeout would.
    timeout http-keep-alive {timeouts['keep_alive']}s
    # No retry on another server: a refused or reset connection reaches the client, as through kube-proxy.
    retries 0

frontend trellis
    bind 127.0.0.1:{self.port}
    default_backend replicas

backend replicas
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    timeout check {probe.get('timeoutSeconds', 1)}s
    default-server inter {probe.get('periodSeconds', 10)}s fall {probe.get('failureThreshold', 3)} rise {probe.get('successThreshold', 1)}
{servers}
"""
        self.config_path = os.path.join(directory, "haproxy.cfg")
        with open(self.config_path, "w") as f:
            f.write(config)
        subprocess.run(["haproxy", "-c", "-q", "-f", self.config_path], check=True)
        self.process = subprocess.Popen(["haproxy", "-db", "-f", self.config_path], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)

    def states(self):
        """{server name: (status, sessions total)} from HAProxy's stats socket."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(2)
            s.connect(self.socket)
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        result = {}
        for line in lines[1:]:
            row = dict(zip(header, line.split(",")))
            if row.get("pxname") == "replicas" and row.get("svname", "").startswith("r"):
                result[row["svname"]] = (row["status"].split()[0], int(row["stot"] or 0))
        return result

    def wait(self, server, status, limit):
        started = time.monotonic()
        while time.monotonic() - started < limit:
            try:
                if self.states().get(server, ("",))[0] == status:
                    return time.monotonic() - started
            except OSError:
                pass
            time.sleep(0.05)
        fatal(f"HAProxy did not mark {server} {status} within {limit} s")

    def stop(self):
        stop(self.process, grace=5)


class Load:
    """CLIENTS keep-alive connections, each sending the mix in turn at RATE / CLIENTS requests per second."""

    def __init__(self, port, cases, rate, limit):
        self.port, self.cases, self.rate, self.limit = port, cases, rate, limit
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.served, self.failed, self.server_errors, self.failures = 0, 0, 0, []
        self.threads = [threading.Thread(target=self.client, args=(i,)) for i in range(CLIENTS)]

    def record(self, ok, status, message):
        with self.lock:
            if ok:
                self.served += 1
            else:
                self.failed += 1
                self.server_errors += status is not None and status >= 500
                if len(self.failures) < 10:
                    self.failures.append(message)

    def client(self, index):
        interval = CLIENTS / self.rate
        started = time.monotonic()
        next_at, n, connection = started, index, None
        while not self.stop.is_set() and time.monotonic() - started < self.limit:
            label, method, path, body, headers = self.cases[n % len(self.cases)]
            n += 1
            status = None
            try:
                connection = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                status = response.status
                response.read()
                self.record(status == 200, status, f"{label}: {status}")
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException) as error:
                self.record(False, status, f"{label}: {error!r}")
                if connection:
                    connection.close()
                connection = None
            next_at += interval
            pause = next_at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            else:
                next_at = time.monotonic()  # behind: no burst to catch up
        if connection:
            connection.close()

    def start(self):
        self.started = time.monotonic()
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join()
        self.seconds = time.monotonic() - self.started


def write_benchmarks(path, lines):
    section = "## Rolling restart\n\n" + "\n".join(lines) + "\n"
    text = open(path).read()
    marker = "## Rolling restart"
    if marker in text:
        start = text.index(marker)
        end = text.find("\n## ", start + 1)
        text = text[:start] + section + (text[end:] if end >= 0 else "")
    else:
        anchor = text.find("\n## Soak")
        text = (text[:anchor + 1] + section + text[anchor:]) if anchor >= 0 else text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--rate", type=int, default=400, help="requests per second, all clients together")
    # make test leaves the work tree as it was: the figures are recorded only when asked (TRELLIS_RECORD=1).
    parser.add_argument("--bench", default=os.path.join(ROOT, "BENCHMARKS.md") if os.environ.get("TRELLIS_RECORD") == "1" else None)
    parser.add_argument("--shutdown-delay", type=int, help="instead of the ConfigMap's (0 shows what the delay prevents)")
    args = parser.parse_args()
    if not shutil.which("haproxy"):
        fatal("no haproxy on PATH (make rolling-restart-test installs it)")

    pod, probe, config = manifests()
    if args.shutdown_delay is not None:
        config["TRELLIS_SHUTDOWN_DELAY"] = str(args.shutdown_delay)
    delay = int(config["TRELLIS_SHUTDOWN_DELAY"])
    grace = pod.get("terminationGracePeriodSeconds", 30)
    header_timeout = int(config["TRELLIS_HEADER_TIMEOUT"])
    timeouts = {"client": int(config["TRELLIS_CONNECTION_TIMEOUT"]), "server": int(config["TRELLIS_CONNECTION_TIMEOUT"]),
                "keep_alive": max(1, header_timeout // 2)}
    # Every endpoint but /readyz, which is the load balancer's, not a client's.
    cases = [case for case in example_requests() if case[2] != "/readyz"]
    # With an operations port /metrics is served there only, not through the load balancer.
    metrics_on_api = config.get("TRELLIS_OPS_PORT", "0") == "0"
    if metrics_on_api:
        cases.append(("GET /metrics", "GET", "/metrics", None, {}))
    print(f"== {REPLICAS} replicas of {args.binary}, TRELLIS_SHUTDOWN_DELAY={delay}, "
          f"terminationGracePeriodSeconds={grace}; HAProxy checks /readyz every {probe.get('periodSeconds')} s, "
          f"fall {probe.get('failureThreshold')}, rise {probe.get('successThreshold')}; "
          f"{len(cases)} requests in the mix at {args.rate}/s")

    environment = {k: str(v) for k, v in config.items()}
    environment["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
    directory = tempfile.mkdtemp(prefix="trellis-rolling-")
    replicas = [Replica(args.binary, i, environment) for i in range(REPLICAS)]
    haproxy = load = None
    timings = []
    deadline = time.monotonic() + RUN_LIMIT_SECONDS
    try:
        for replica in replicas:
            replica.start()
        haproxy = HAProxy(directory, replicas, probe, timeouts)
        for replica in replicas:
            haproxy.wait(f"r{replica.index}", "UP", 10)
        ok(f"HAProxy on 127.0.0.1:{haproxy.port} has replicas {[r.port for r in replicas]} UP")
        load = Load(haproxy.port, cases, args.rate, RUN_LIMIT_SECONDS)
        load.start()
        time.sleep(WARM_SECONDS)
        for replica in replicas:
            if time.monotonic() > deadline:
                fatal(f"the run passed {RUN_LIMIT_SECONDS} s")
            name = f"r{replica.index}"
            before = haproxy.states()[name][1]
            exited = []
            waiter = threading.Thread(target=lambda p=replica.process: (p.wait(), exited.append(time.monotonic())))
            signalled = time.monotonic()
            replica.process.send_signal(signal.SIGTERM)
            waiter.start()
            down = haproxy.wait(name, "DOWN", delay + grace)
            waiter.join(max(0.0, signalled + grace - time.monotonic()))
            if not exited:
                replica.process.kill()
                fatal(f"replica {replica.index} still running {grace} s after SIGTERM")
            stopped, code = exited[0] - signalled, replica.process.returncode
            if code != 0:
                fatal(f"replica {replica.index} exited with {code} after SIGTERM")
            served_while_leaving = haproxy.states()[name][1] - before
            ready = replica.start()
            haproxy.wait(name, "UP", 30)
            back = time.monotonic() - signalled
            timings.append((replica.index, down, stopped, ready, back, served_while_leaving))
            ok(f"replica {replica.index}: HAProxy DOWN {down:.1f} s after SIGTERM, exit 0 after {stopped:.1f} s, "
                  f"ready {ready:.2f} s after its start, back UP {back:.1f} s after SIGTERM "
                  f"(HAProxy sent it {served_while_leaving} requests after SIGTERM)")
            time.sleep(SETTLE_SECONDS)
        time.sleep(WARM_SECONDS)
        load.finish()
        final = haproxy.states()
    finally:
        if load and not load.stop.is_set():
            load.finish()
        if haproxy:
            haproxy.stop()
        for replica in replicas:
            if replica.server:
                stop(replica.server)  # its second SIGTERM ends the shutdown delay
        shutil.rmtree(directory, ignore_errors=True)

    rate = load.served / load.seconds
    print(f"requests: {load.served + load.failed} sent, {load.served} answered 200, {load.failed} failed "
          f"({load.server_errors} 5xx) in {load.seconds:.1f} s ({rate:.0f}/s); per replica (HAProxy sessions): "
          + ", ".join(f"{name} {stot}" for name, (_, stot) in sorted(final.items())))
    for message in load.failures:
        print(f"  failed: {message}")
    worst = max(t[4] for t in timings)
    if load.failed or load.server_errors or load.served == 0:
        fatal(f"rolling restart: {load.failed} failed requests, {load.server_errors} 5xx")
    ok(f"rolling restart of {REPLICAS} replicas: {load.served} requests, 0 failed, 0 5xx; "
          f"each replica back in rotation within {worst:.1f} s of its SIGTERM")

    stamp = datetime.date.today().isoformat()
    lines = [
        "- Command: `make rolling-restart-test` (scripts/rolling-restart.py; part of `make test`)",
        f"- Date: {stamp}; {os.cpu_count()} CPUs shared with other work; release build, HAProxy "
        f"{subprocess.run(['haproxy', '-v'], capture_output=True, text=True).stdout.split()[2]} from Debian on loopback",
        f"- Setup: {REPLICAS} replicas with deploy/kubernetes/configmap.yaml's settings (TRELLIS_SHUTDOWN_DELAY={delay}, "
        f"{config['TRELLIS_THREADS']} threads each); HAProxy checks `/readyz` every {probe.get('periodSeconds')} s "
        f"(fall {probe.get('failureThreshold')}, rise {probe.get('successThreshold')}, timeout {probe.get('timeoutSeconds')} s, "
        "as the readiness probe) and never retries",
        f"- Load: {CLIENTS} keep-alive clients, a steady {args.rate} requests/s cycling through {len(cases)} requests "
        "(every POST example in openapi.yaml, `/healthz`, `/`, `/openapi.yaml`"
        + (", `/metrics`" if metrics_on_api else "") + ") for the whole run",
        "- Each replica in turn: SIGTERM, exit, started again on its port, back in HAProxy's rotation before the next",
        f"- Requests: **{load.served} answered 200, {load.failed} failed, {load.server_errors} 5xx** in {load.seconds:.0f} s",
        "",
        "| replica | HAProxy marks it down | process exits (0) | ready after start | back in rotation | requests HAProxy sent it after SIGTERM |",
        "|---|---:|---:|---:|---:|---:|",
    ] + [f"| {i} | {down:.1f} s | {stopped:.1f} s | {ready:.2f} s | {back:.1f} s | {served} |"
         for i, down, stopped, ready, back, served in timings] + [
        "",
        f"Restart time (SIGTERM to back in rotation) is the shutdown delay ({delay} s) plus the start and one "
        "health check: the delay is what keeps every request answered while the balancer takes the replica out.",
    ]
    if args.bench:
        write_benchmarks(args.bench, lines)
        ok(f"recorded in {args.bench} (## Rolling restart)")
    else:
        ok("not recorded (TRELLIS_RECORD=1 writes the figures into BENCHMARKS.md)")
    print("rolling-restart-test passed")


if __name__ == "__main__":
    main()
