#!/usr/bin/env python3
"""make kube-play-test: the rendered Deployment run by `podman kube play` on the image make image-test built.

Renders deploy/kubernetes with `kubectl kustomize` and plays its ConfigMap and Deployment (podman
plays one replica) on localhost/trellis:image-test, with two changes for this machine only: that
image instead of the registry's, and the container port published on 127.0.0.1 (podman has no
Service). Checks, each "ok: ..." or "FAIL: ...": the pod runs with the manifest's security settings
(uid, read-only root filesystem, no capabilities, no-new-privileges, seccomp filter) and limits
(memory, CPU) and the ConfigMap's environment; every probe's HTTP GET answers 200 through its
port (the operations port when the ConfigMap sets TRELLIS_OPS_PORT), as the kubelet sends it; the openapi.yaml examples answer 200; then `podman stop -t
terminationGracePeriodSeconds` on the container (what the kubelet gives it): /readyz turns 503 while /healthz
and the examples are still served for the shutdown delay, and the container exits 0 within the grace period.
Uses image-test's podman state (TRELLIS_IMAGE_STATE) and its lock.
"""
import fcntl
import os
import subprocess
import sys
import tempfile
import threading
import time

import yaml

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trellis_harness import ROOT, check, example_requests, fatal, free_port, finish, ok  # noqa: E402
from trellis_harness import http_status as status  # noqa: E402

STATE = os.environ.get("TRELLIS_IMAGE_STATE", "/var/cache/trellis-image-test")
IMAGE = "localhost/trellis:image-test"
NAME = "trellis-image-test-kube"  # image-test removes leftovers named trellis-image-test-*


def podman(*args, check=True):
    result = subprocess.run(["podman", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        fatal(f"podman {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout.strip()


def logs(name):
    """The container's stdout and stderr (podman logs keeps them apart)."""
    result = subprocess.run(["podman", "logs", name], capture_output=True, text=True)
    return result.stdout + result.stderr


def main():
    if os.geteuid() != 0:
        fatal("kube-play-test needs root (rootful podman, as image-test)")
    os.environ["CONTAINERS_CONF"] = os.path.join(STATE, "containers.conf")
    os.environ["CONTAINERS_STORAGE_CONF"] = os.path.join(STATE, "storage.conf")
    if not os.path.exists(os.environ["CONTAINERS_CONF"]):
        fatal(f"no podman state in {STATE}: run make image-test first")
    lock = open(os.path.join(STATE, "lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)  # the image tag is shared with other trees' image-test runs

    if subprocess.run(["podman", "image", "exists", IMAGE]).returncode != 0:
        fatal(f"no {IMAGE}: run make image-test first")
    help_text = podman("run", "--rm", "--network", "none", "--entrypoint", "/usr/local/bin/trellis", IMAGE, "--help")
    if "--shutdown-delay" not in help_text:
        fatal(f"{IMAGE} has no --shutdown-delay: it was built from other sources; run make image-test here")

    rendered = subprocess.run(["kubectl", "kustomize", os.path.join(ROOT, "deploy", "kubernetes")],
                              capture_output=True, text=True, check=True).stdout
    docs = [doc for doc in yaml.safe_load_all(rendered) if doc]
    config = next(doc for doc in docs if doc["kind"] == "ConfigMap")
    deployment = next(doc for doc in docs if doc["kind"] == "Deployment")
    pod_spec = deployment["spec"]["template"]["spec"]
    container = pod_spec["containers"][0]
    security = container["securityContext"]
    data = config["data"]
    delay = int(data["TRELLIS_SHUTDOWN_DELAY"])
    grace = pod_spec.get("terminationGracePeriodSeconds", 30)
    port = free_port()
    container["image"] = IMAGE
    container["imagePullPolicy"] = "IfNotPresent"  # the local image: nothing to pull
    container["ports"][0].update(hostIP="127.0.0.1", hostPort=port)
    container_port = container["ports"][0]["containerPort"]
    # The probes' port: the operations port (named ops) when the ConfigMap turns the listener on, published
    # too; without TRELLIS_OPS_PORT the probes' paths are sent to the API port, which serves them as well.
    probe_ports = {"http": port}
    ops = next((p for p in container["ports"] if p.get("name") == "ops"), None)
    if ops is not None and "TRELLIS_OPS_PORT" in data:
        probe_ports["ops"] = free_port()
        ops.update(hostIP="127.0.0.1", hostPort=probe_ports["ops"])
        if int(data["TRELLIS_OPS_PORT"]) != ops["containerPort"]:
            fatal(f"TRELLIS_OPS_PORT {data['TRELLIS_OPS_PORT']} is not the ops containerPort {ops['containerPort']}")
    elif ops is not None:
        print(f"note: no TRELLIS_OPS_PORT in the ConfigMap: the probes' paths go to the API port, not {ops['containerPort']}")
        container["ports"].remove(ops)
    deployment["metadata"]["name"] = NAME

    cases = [case for case in example_requests() if case[2] != "/readyz"]

    directory = tempfile.mkdtemp(prefix="trellis-kube-play-")
    play = os.path.join(directory, "play.yaml")
    with open(play, "w") as f:
        yaml.safe_dump_all([config, deployment], f)
    subprocess.run(["podman", "kube", "down", play], capture_output=True)
    print(f"== podman kube play: Deployment {deployment['metadata']['name']} + ConfigMap {config['metadata']['name']} "
          f"on {IMAGE}, port {container_port} published on 127.0.0.1:{port}")
    result = subprocess.run(["podman", "kube", "play", play], capture_output=True, text=True)
    # Without systemd podman cannot add healthcheck timers and says so; anything else is an error.
    if result.returncode != 0:
        fatal(f"podman kube play: {result.stderr.strip()}")
    try:
        run(port, probe_ports, container_port, data, security, container, pod_spec, deployment, cases, delay, grace)
    finally:
        subprocess.run(["podman", "kube", "down", play], capture_output=True)
        for path in os.listdir(directory):
            os.remove(os.path.join(directory, path))
        os.rmdir(directory)
    finish("kube-play-test")


def run(port, probe_ports, container_port, data, security, container, pod_spec, deployment, cases, delay, grace):
    names = podman("ps", "-a", "--format", "{{.Names}}", "--filter", f"pod={deployment['metadata']['name']}-pod-0").split()
    workload = [n for n in names if n.endswith("-" + container["name"])]
    if len(workload) != 1:
        fatal(f"expected one {container['name']} container in the pod, found {names}")
    name = workload[0]

    # The startup probe, as the kubelet runs it: GET until 200, within period x failureThreshold.
    def probe_port(probe):
        return probe_ports.get(probe["httpGet"]["port"], port)

    startup = container["startupProbe"]
    budget = startup.get("periodSeconds", 10) * startup.get("failureThreshold", 3)
    started = time.monotonic()
    while status(probe_port(startup), "GET", startup["httpGet"]["path"], timeout=startup.get("timeoutSeconds", 1)) != 200:
        if time.monotonic() - started > budget:
            print(logs(name))
            fatal(f"the startup probe did not pass within {budget} s")
        time.sleep(0.1)
    ok(f"startupProbe GET {startup['httpGet']['path']}: 200 after {time.monotonic() - started:.2f} s (allowed {budget} s)")
    for probe_name in ["readinessProbe", "livenessProbe"]:
        probe = container[probe_name]
        got = status(probe_port(probe), "GET", probe["httpGet"]["path"], timeout=probe.get("timeoutSeconds", 1))
        check(got == 200, f"{probe_name} GET {probe['httpGet']['path']} through 127.0.0.1:{probe_port(probe)}: {got}")

    text = logs(name)
    check(f"listening on {data['TRELLIS_HOST']}:{data['TRELLIS_PORT']} with {data['TRELLIS_THREADS']} threads" in text
          and f"memory budget {data['TRELLIS_MEMORY_BUDGET']} bytes" in text,
          "the ConfigMap's host, port, threads and memory budget are in effect",
          [line for line in text.splitlines() if line.startswith("trellis:")])
    environment = dict(line.split("=", 1) for line in podman("exec", name, "env").splitlines() if "=" in line)
    missing = {k: v for k, v in data.items() if environment.get(k) != str(v)}
    check(not missing, f"all {len(data)} ConfigMap variables in the container's environment", missing)

    proc = dict(line.split(":", 1) for line in podman("exec", name, "cat", "/proc/1/status").splitlines() if ":" in line)
    proc = {k: v.split() for k, v in proc.items()}
    check(proc["Name"] == ["trellis"], f"PID 1 is trellis ({proc['Name']})")
    check(proc["Uid"] == [str(security["runAsUser"])] * 4 and proc["Gid"] == [str(security["runAsGroup"])] * 4,
          f"uid {proc['Uid'][0]}, gid {proc['Gid'][0]} (runAsUser, runAsGroup)")
    check(all(proc[k] == ["0000000000000000"] for k in ("CapPrm", "CapEff", "CapBnd", "CapAmb")),
          "no capabilities, bounding set empty (drop: [ALL])")
    check(proc["NoNewPrivs"] == ["1"], "no_new_privs set (allowPrivilegeEscalation: false)")
    check(proc["Seccomp"] == ["2"], "a seccomp filter (seccompProfile: RuntimeDefault)")
    touch = subprocess.run(["podman", "exec", name, "touch", "/trellis-write-test"], capture_output=True, text=True)
    check(touch.returncode != 0 and "Read-only file system" in touch.stderr,
          "the root filesystem is read-only (readOnlyRootFilesystem: true)", touch.stderr.strip())
    inspected = podman("inspect", name, "--format", "{{.HostConfig.Memory}} {{.HostConfig.NanoCpus}}").split()
    limits = container["resources"]["limits"]
    want_memory = int(limits["memory"].rstrip("Mi")) << 20
    check(int(inspected[0]) == want_memory and int(inspected[1]) == int(float(limits["cpu"]) * 1e9),
          f"limits: memory {inspected[0]} bytes, {int(inspected[1]) / 1e9:g} CPUs")

    answered = [(label, status(port, method, path, body, headers)) for label, method, path, body, headers in cases]
    bad = [(label, got) for label, got in answered if got != 200]
    check(not bad, f"{len(cases)} requests (every openapi.yaml POST example and the GETs) answer 200 through the port", bad)

    # Stop as the kubelet does: SIGTERM to the container, up to terminationGracePeriodSeconds, while
    # the pod's network (its infra container) stays up.
    seen = {"readyz": set(), "healthz": set(), "examples": set()}
    stopping = threading.Event()

    def poll():
        while not stopping.is_set():
            seen["readyz"].add(status(port, "GET", "/readyz", timeout=1))
            seen["healthz"].add(status(port, "GET", "/healthz", timeout=1))
            label, method, path, body, headers = cases[-1]
            seen["examples"].add(status(port, method, path, body, headers, timeout=1))
            time.sleep(0.2)

    started = time.monotonic()
    stopper = subprocess.Popen(["podman", "stop", "-t", str(grace), name],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1)
    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(max(0.5, delay - 3))
    stopping.set()
    poller.join()
    during = dict(seen)
    try:
        stopper.wait(grace + 10)
    except subprocess.TimeoutExpired:
        stopper.kill()
        fatal(f"podman stop -t {grace} did not return")
    elapsed = time.monotonic() - started
    check(during["readyz"] == {503}, f"during the shutdown delay /readyz answered {sorted(during['readyz'], key=str)} (503 only)")
    check(during["healthz"] == {200} and during["examples"] == {200},
          f"during the shutdown delay /healthz and {cases[-1][0]} were still served (200 only)")
    code = podman("inspect", name, "--format", "{{.State.ExitCode}}")
    check(code == "0" and "draining" in logs(name), f"the container exited {code} after SIGTERM (trellis: draining)")
    check(delay <= elapsed < grace, f"podman stop -t {grace}: {elapsed:.1f} s (the {delay} s shutdown delay, then the drain)")
    print(f"kube-play-seconds-to-stop={elapsed:.1f}")


if __name__ == "__main__":
    main()
