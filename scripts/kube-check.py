#!/usr/bin/env python3
"""make kube-validate: deploy/kubernetes against the Kubernetes API schemas and this project's policy.

Renders the kustomization with `kubectl kustomize` (what `kubectl apply -k` applies) into
.build/kube/rendered.yaml, validates it and every file in deploy/kubernetes/examples/ with
kubernetes-validate (--strict: unknown fields fail) for Kubernetes KUBERNETES_VERSION, then checks
that the security settings, probes, shutdown timings, resources and configuration are the ones
docs/operations.md and docs/capacity.md describe: among them probes and Prometheus on the operations port
(ops, OPS_PORT), a NetworkPolicy with no egress, a namespace, the image by version tag, and an
Ingress example that routes only /v1/ with TLS and rate limits. Prints "ok: ..." per check; any
"FAIL: ..." exits 1.
"""
import math
import os
import re
import subprocess
import sys

import yaml

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trellis_harness import ROOT, check, failures, fatal, finish, ok  # noqa: E402

DEPLOY = os.path.join(ROOT, "deploy", "kubernetes")
OUT = os.path.join(ROOT, ".build", "kube")
KUBERNETES_VERSION = os.environ.get("KUBERNETES_VERSION", "1.31.0")
# The drain after the shutdown delay: requests in flight get up to this many seconds (main.swift).
DRAIN_SECONDS = 10
# Fixed memory besides the budget and connections: the process itself (docs/limits.md).
PROCESS_BYTES = 20 << 20
# One JSON parser per thread holds up to about this many times the largest body it parsed.
PARSER_FACTOR = 10
# The font sanitizer (one at a time) holds up to about this many times its output, which is at most 4 x the
# largest font file (measured: 3.7 x for a WOFF2 of IPAGothic; docs/fonts.md).
SANITIZER_FACTOR = 4 * 4
# The operations listener's port (TRELLIS_OPS_PORT): probes and metrics go there, not through the Service.
OPS_PORT = 9090


def quantity(value):
    """A Kubernetes quantity (cpu or bytes) as a number."""
    text = str(value)
    suffixes = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9}
    for suffix, factor in suffixes.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


def render():
    os.makedirs(OUT, exist_ok=True)
    result = subprocess.run(["kubectl", "kustomize", DEPLOY], capture_output=True, text=True)
    if result.returncode != 0:
        fatal(f"kubectl kustomize {DEPLOY}: {result.stderr.strip()}")
    path = os.path.join(OUT, "rendered.yaml")
    with open(path, "w") as f:
        f.write(result.stdout)
    ok(f"kubectl kustomize deploy/kubernetes rendered {path}")
    return path, [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def validate(paths):
    for path in paths:
        result = subprocess.run(["kubernetes-validate", "-k", KUBERNETES_VERSION, "--strict", path],
                                capture_output=True, text=True)
        lines = (result.stdout + result.stderr).strip().splitlines()
        passed = [line for line in lines if " passed for resource " in line]
        check(result.returncode == 0 and passed and len(passed) == len(lines),
              f"{os.path.relpath(path, ROOT)}: {len(passed)} resources valid against Kubernetes {KUBERNETES_VERSION} (strict)",
              "\n  " + "\n  ".join(lines))


def flag_variables():
    """Every TRELLIS_* variable the configuration reads (Sources/trellis/Configuration.swift)."""
    with open(os.path.join(ROOT, "Sources", "trellis", "Configuration.swift")) as f:
        source = f.read()
    table = source[source.index("let envNames"):]
    table = table[: table.index("]\n")]
    return sorted(set(re.findall(r'"(TRELLIS_[A-Z_]+)"', table)))


def image_uid():
    with open(os.path.join(ROOT, "Dockerfile")) as f:
        users = re.findall(r"^USER\s+(\d+)", f.read(), re.MULTILINE)
    return int(users[-1])


def policy(docs):
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)
    for kind in ["Namespace", "ServiceAccount", "ConfigMap", "Deployment", "Service", "NetworkPolicy",
                 "HorizontalPodAutoscaler", "PodDisruptionBudget"]:
        check(len(by_kind.get(kind, [])) == 1, f"one {kind}")
    if failures:
        return
    deployment = by_kind["Deployment"][0]
    config = by_kind["ConfigMap"][0]["data"]
    hpa = by_kind["HorizontalPodAutoscaler"][0]
    pdb = by_kind["PodDisruptionBudget"][0]
    service = by_kind["Service"][0]
    spec = deployment["spec"]
    template = spec["template"]
    pod = template["spec"]
    containers = pod["containers"]
    check(len(containers) == 1, "the pod runs one container")
    container = containers[0]
    security = container.get("securityContext", {})
    pod_security = pod.get("securityContext", {})

    # Configuration: every flag's variable in the ConfigMap, which the container reads.
    variables = flag_variables()
    missing = [name for name in variables if name not in config]
    check(not missing, f"the ConfigMap sets all {len(variables)} TRELLIS_* variables", f"missing {missing}")
    unknown = [name for name in config if name not in variables]
    check(not unknown, "the ConfigMap sets no variable trellis does not read", f"{unknown}")
    check({"configMapRef": {"name": by_kind["ConfigMap"][0]["metadata"]["name"]}} in container.get("envFrom", []),
          "the container takes its environment from the ConfigMap (envFrom)")
    check(pod.get("enableServiceLinks") is False, "enableServiceLinks: false (no TRELLIS_PORT=tcp://... from a Service named trellis)")
    numbers = {name: int(config[name]) for name in variables if re.fullmatch(r"-?\d+", config.get(name, ""))}
    port = numbers["TRELLIS_PORT"]
    ports = {p.get("name"): p["containerPort"] for p in container.get("ports", [])}
    check(port in ports.values(), f"containerPort {port} = TRELLIS_PORT")

    # Replicas and rollout.
    replicas = spec.get("replicas")
    check((replicas is None or replicas >= 3) and hpa["spec"]["minReplicas"] >= 3,
          f"at least 3 replicas (Deployment replicas {replicas}, HPA minReplicas {hpa['spec']['minReplicas']})")
    strategy = spec.get("strategy", {})
    check(strategy.get("type") == "RollingUpdate" and strategy.get("rollingUpdate", {}).get("maxUnavailable") == 0,
          "rolling update with maxUnavailable: 0")
    spread = [c for c in pod.get("topologySpreadConstraints", []) if c.get("topologyKey") == "kubernetes.io/hostname"]
    check(bool(spread) and spread[0]["labelSelector"]["matchLabels"].items() <= template["metadata"]["labels"].items(),
          "topology spread across nodes (kubernetes.io/hostname) over this Deployment's pods")

    # Security.
    check(pod.get("automountServiceAccountToken") is False, "no service-account token mounted (automountServiceAccountToken: false)")
    run_as_non_root = security.get("runAsNonRoot", pod_security.get("runAsNonRoot"))
    uid = security.get("runAsUser", pod_security.get("runAsUser"))
    check(run_as_non_root is True, "runAsNonRoot: true")
    check(uid == image_uid(), f"runAsUser {uid} = the Dockerfile's USER {image_uid()}")
    check(security.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem: true")
    check(security.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation: false")
    capabilities = security.get("capabilities", {})
    check(capabilities.get("drop") == ["ALL"] and not capabilities.get("add"), "capabilities: {drop: [ALL]}, none added")
    seccomp = security.get("seccompProfile", pod_security.get("seccompProfile", {}))
    check(seccomp.get("type") == "RuntimeDefault", "seccompProfile: RuntimeDefault")
    check(not security.get("privileged") and not pod.get("hostNetwork") and not pod.get("hostPID"),
          "not privileged, no host network or PIDs")

    # The operations port: in the pod, named ops; the ConfigMap's TRELLIS_OPS_PORT once trellis reads it.
    check(ports.get("ops") == OPS_PORT, f"containerPort ops = {OPS_PORT}", f"{ports}")
    if "TRELLIS_OPS_PORT" in variables:
        check(numbers.get("TRELLIS_OPS_PORT") == OPS_PORT, f"TRELLIS_OPS_PORT {config.get('TRELLIS_OPS_PORT')} = the ops port {OPS_PORT}")
    else:
        print(f"note: this trellis reads no TRELLIS_OPS_PORT yet: the probes on port {OPS_PORT} need the operations listener")

    # Probes, and the shutdown timings they imply.
    def probe(name, path):
        p = container.get(name) or {}
        get = p.get("httpGet") or {}
        target = ports.get(get.get("port"), get.get("port"))
        check(get.get("path") == path and target == OPS_PORT, f"{name} GET {path} on the ops port {OPS_PORT}", f"{p}")
        return p

    startup = probe("startupProbe", "/readyz")
    readiness = probe("readinessProbe", "/readyz")
    liveness = probe("livenessProbe", "/healthz")
    delay = numbers["TRELLIS_SHUTDOWN_DELAY"]
    # A probe's defaults: period 10 s, timeout 1 s, failure threshold 3.
    unready = readiness.get("periodSeconds", 10) * readiness.get("failureThreshold", 3) + readiness.get("timeoutSeconds", 1)
    check(0 < unready < delay,
          f"readiness notices /readyz 503 within {unready} s, inside TRELLIS_SHUTDOWN_DELAY ({delay} s)")
    grace = pod.get("terminationGracePeriodSeconds", 30)
    check(grace > delay + DRAIN_SECONDS,
          f"terminationGracePeriodSeconds {grace} > the shutdown delay {delay} s + the drain {DRAIN_SECONDS} s")
    restart_after = liveness.get("periodSeconds", 10) * liveness.get("failureThreshold", 3)
    check(restart_after >= 3 * liveness.get("timeoutSeconds", 1),
          f"liveness restarts a pod only after {restart_after} s of failed /healthz")
    start_budget = startup.get("periodSeconds", 10) * startup.get("failureThreshold", 3)
    check(start_budget >= 10, f"the startup probe allows {start_budget} s to start")

    # Resources, and the flags that must agree with them (docs/capacity.md).
    resources = container.get("resources", {})
    requests, limits = resources.get("requests", {}), resources.get("limits", {})
    check(all(k in requests for k in ("cpu", "memory")) and all(k in limits for k in ("cpu", "memory")),
          "cpu and memory requests and limits set")
    threads = numbers["TRELLIS_THREADS"]
    cpu_limit = quantity(limits["cpu"])
    check(threads == math.ceil(cpu_limit), f"TRELLIS_THREADS {threads} = the CPU limit's cores ({limits['cpu']})")
    check(quantity(requests["memory"]) == quantity(limits["memory"]), "memory request = limit (memory is not compressible)")
    memory_limit = quantity(limits["memory"])
    budget = numbers["TRELLIS_MEMORY_BUDGET"]
    connections = numbers["TRELLIS_MAX_CONNECTIONS"] * numbers["TRELLIS_CONNECTION_MEMORY"]
    parsers = threads * PARSER_FACTOR * numbers["TRELLIS_MAX_BODY_BYTES"]
    fonts = numbers["TRELLIS_FONT_STORE_BYTES"]
    sanitizer = SANITIZER_FACTOR * min(numbers["TRELLIS_MAX_FONT_BYTES"], numbers["TRELLIS_MAX_BODY_BYTES"])
    need = budget + connections + parsers + PROCESS_BYTES + fonts + sanitizer
    mib = lambda n: f"{n / (1 << 20):.0f} MiB"
    check(need <= memory_limit,
          f"memory limit {limits['memory']} holds the budget {mib(budget)} + connections {mib(connections)} "
          f"+ parsers {threads} x {PARSER_FACTOR} x body {mib(parsers)} + process {mib(PROCESS_BYTES)} "
          f"+ uploaded fonts {mib(fonts)} + the sanitizer {mib(sanitizer)} = {mib(need)}")
    # The root filesystem is read-only: the sanitizer's TMPDIR and the font store are volumes.
    mounts = {m["mountPath"]: m["name"] for m in container.get("volumeMounts", [])}
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    check("/tmp" in mounts and "emptyDir" in volumes.get(mounts["/tmp"], {}), "/tmp (the font sanitizer's TMPDIR) is an emptyDir")
    store = config.get("TRELLIS_FONT_STORE_DIR")
    check(store in mounts and "emptyDir" in volumes.get(mounts[store], {}),
          f"TRELLIS_FONT_STORE_DIR {store} is an emptyDir mounted in the container")

    # Service, autoscaler, disruption budget, metrics.
    labels = template["metadata"]["labels"]
    check(service["spec"].get("type", "ClusterIP") == "ClusterIP" and service["spec"]["selector"].items() <= labels.items()
          and all(ports.get(p["targetPort"], p["targetPort"]) == port for p in service["spec"]["ports"]),
          "ClusterIP Service onto the API port only (not the ops port)")
    target = hpa["spec"]["scaleTargetRef"]
    cpu_metrics = [m for m in hpa["spec"].get("metrics", []) if m.get("type") == "Resource" and m["resource"]["name"] == "cpu"]
    check(hpa["apiVersion"] == "autoscaling/v2" and target["kind"] == "Deployment"
          and target["name"] == deployment["metadata"]["name"] and len(cpu_metrics) == 1,
          f"autoscaling/v2 HPA on CPU ({cpu_metrics[0]['resource']['target'] if cpu_metrics else None})")
    check(pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
          and ("maxUnavailable" in pdb["spec"] or "minAvailable" in pdb["spec"]), "PodDisruptionBudget over the pods")
    annotations = template["metadata"].get("annotations", {})
    check(annotations.get("prometheus.io/scrape") == "true" and annotations.get("prometheus.io/path") == "/metrics"
          and int(annotations.get("prometheus.io/port", 0)) == OPS_PORT, f"Prometheus scrape annotations for /metrics on {OPS_PORT}")

    # Namespace and image.
    namespace = by_kind["Namespace"][0]["metadata"]["name"]
    placed = {doc["kind"]: doc["metadata"].get("namespace") for doc in docs if doc["kind"] != "Namespace"}
    check(namespace != "default" and set(placed.values()) == {namespace},
          f"every object in the namespace {namespace} (kustomization.yaml), none in default", f"{placed}")
    image = container.get("image", "")
    tag = image.rsplit("@", 1)[0].rsplit(":", 1)[-1] if ":" in image.rsplit("/", 1)[-1] else ""
    check(re.fullmatch(r"\d+\.\d+\.\d+", tag) is not None or "@sha256:" in image,
          f"the image by a version tag or a digest ({image})")
    check(container.get("imagePullPolicy") == "Always" or "@sha256:" in image,
          f"imagePullPolicy {container.get('imagePullPolicy')} (Always for a tag; a digest may use IfNotPresent)")
    check(config.get("TRELLIS_CORS_ORIGINS") not in ("*", None), f"TRELLIS_CORS_ORIGINS is a list to set, not * ({config.get('TRELLIS_CORS_ORIGINS')})")

    # NetworkPolicy: the pods, ingress from named peers on named ports only, no egress.
    network = by_kind["NetworkPolicy"][0]["spec"]
    check(network["podSelector"].get("matchLabels", {}).items() <= labels.items() and network["podSelector"].get("matchLabels"),
          "the NetworkPolicy selects the Deployment's pods")
    check(sorted(network.get("policyTypes", [])) == ["Egress", "Ingress"] and not network.get("egress"),
          "the NetworkPolicy allows no egress (Egress in policyTypes, no egress rule)")
    rules = network.get("ingress", [])
    peers_ok = all(rule.get("from") and all(peer.get("namespaceSelector") and peer.get("podSelector") for peer in rule["from"])
                   for rule in rules)
    rule_ports = sorted(ports.get(p["port"], p["port"]) for rule in rules for p in rule.get("ports", []))
    check(len(rules) == 2 and peers_ok and rule_ports == sorted([port, OPS_PORT]),
          f"the NetworkPolicy admits two peers (namespace and pod selectors), one on the API port, one on {OPS_PORT}",
          f"{rules}")
    numbers["namespace"] = namespace
    return numbers


def ingress(numbers):
    path = os.path.join(DEPLOY, "examples", "ingress-nginx.yaml")
    with open(path) as f:
        doc = yaml.safe_load(f)
    annotations = doc["metadata"]["annotations"]
    body = annotations["nginx.ingress.kubernetes.io/proxy-body-size"]
    check(quantity(body.replace("m", "Mi")) == numbers["TRELLIS_MAX_BODY_BYTES"],
          f"the Ingress example's proxy-body-size {body} = TRELLIS_MAX_BODY_BYTES")
    check(int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) == numbers["TRELLIS_CONNECTION_TIMEOUT"],
          "the Ingress example's proxy-read-timeout = TRELLIS_CONNECTION_TIMEOUT")
    rules = doc["spec"]["rules"]
    paths = [path["path"] for rule in rules for path in rule["http"]["paths"]]
    check(paths and all(path.startswith("/v1/") for path in paths),
          f"the Ingress example routes only the API ({paths}): /metrics, /playground, /openapi.yaml stay inside")
    hosts = {rule.get("host") for rule in rules}
    covered = {host for tls in doc["spec"].get("tls", []) for host in tls.get("hosts", []) if tls.get("secretName")}
    check(hosts <= covered, f"the Ingress example's TLS section covers its hosts {sorted(hosts)}")
    check(all(int(annotations.get(f"nginx.ingress.kubernetes.io/{name}", 0)) > 0 for name in ("limit-rps", "limit-connections")),
          "the Ingress example rate-limits each client (limit-rps, limit-connections)")
    check(doc["metadata"].get("namespace") == numbers["namespace"],
          f"the Ingress example is in the Service's namespace ({doc['metadata'].get('namespace')})")


def main():
    path, docs = render()
    examples = sorted(os.path.join(DEPLOY, "examples", name) for name in os.listdir(os.path.join(DEPLOY, "examples"))
                      if name.endswith(".yaml"))
    validate([path] + examples)
    numbers = policy(docs)
    if numbers:
        ingress(numbers)
    finish("kube-validate")


if __name__ == "__main__":
    main()
