"""What the test and benchmark scripts share: a trellis process on loopback, free ports, HTTP
calls, the openapi.yaml examples as requests, and the "ok: ..." / "FAIL: ..." lines of a check.

Used by scripts/ (the rolling restart, kube play, REDbot, image and client checks, the outline search
oracle, the playground's browser test and screenshots) and bench/ (run.py and the scripts that
import it). Standard library only (openapi.yaml is read with PyYAML, imported when asked for).
A script imports it with scripts/ on sys.path, after `sys.dont_write_bytecode = True` so that no
__pycache__ is left in the work tree.
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE_BINARY = os.path.join(ROOT, ".build", "release", "trellis")
DEBUG_BINARY = os.path.join(ROOT, ".build", "debug", "trellis")
SPEC = os.path.join(ROOT, "openapi.yaml")


# -------------------------------------------------------------------------------------------------
# Checks: one line each, "ok: ..." or "FAIL: ..."; a failed one is counted and the script goes on (or
# `require` fails a unittest test, `fatal` ends the script)
# -------------------------------------------------------------------------------------------------

failures = []


def ok(message):
    print(f"ok: {message}", flush=True)


def fail(message):
    print(f"FAIL: {message}", flush=True)
    failures.append(message)


def check(condition, message, detail=""):
    """ok or FAIL (with the detail) by the condition; returns it."""
    if condition:
        ok(message)
    else:
        fail(f"{message}{': ' + str(detail) if detail else ''}")
    return bool(condition)


def require(condition, message):
    """An assertion for unittest-style scripts (the browser test): a failed one fails the test with the message."""
    if not condition:
        raise AssertionError(message)


def fatal(message):
    """A failure the script cannot go on after."""
    raise SystemExit(f"FAIL: {message}")


def finish(name):
    """Ends a script of checks: exit 1 when one failed."""
    if failures:
        print(f"{name}: {len(failures)} checks failed", flush=True)
        sys.exit(1)
    print(f"{name} passed", flush=True)


# -------------------------------------------------------------------------------------------------
# Ports and processes
# -------------------------------------------------------------------------------------------------

def free_port():
    """A loopback port nothing listens on now (the kernel's pick; another process could take it later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, timeout=10):
    """Waits until something accepts connections on 127.0.0.1:port (a server that prints nothing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listening on 127.0.0.1:{port} after {timeout} s")


def stop(process, grace=15):
    """Stops a process (a Popen or a Trellis): SIGTERM, a second one after a second (it ends trellis's
    shutdown delay), SIGKILL once `grace` seconds have passed. Returns its exit code."""
    process = getattr(process, "process", process)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
    return process.returncode


class StartError(RuntimeError):
    pass


class Trellis:
    """The trellis binary on 127.0.0.1 with the access log off: on the port the kernel picks (--port 0)
    unless `port` is given, with `arguments` after those flags (flags win over `env`'s TRELLIS_*).
    It prints "listening on HOST:PORT" once it serves, its fonts loaded, so it is ready when this returns.
    Its standard error is kept in `output`. Stop it with stop(), or use it in a `with` block."""

    def __init__(self, binary=RELEASE_BINARY, *arguments, port=0, env=None, timeout=30):
        self.binary = str(binary)
        command = [self.binary, "--host", "127.0.0.1", "--port", str(port), "--log", "off", *map(str, arguments)]
        started = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True, env=env)
        self.output = []
        listening = threading.Event()

        def read():
            # Read to the end, so that the process never blocks on a full pipe.
            for line in self.process.stderr:
                self.output.append(line.rstrip("\n"))
                if "listening on " in line:
                    listening.set()
            listening.set()

        threading.Thread(target=read, daemon=True).start()
        listening.wait(timeout)
        found = next((m for m in map(re.compile(r"listening on [^ ]*:(\d+)").search, self.output) if m), None)
        if not found:
            try:
                exited = self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                exited = None
            self.stop()
            how = f"exited with {exited}" if exited is not None else f"did not listen within {timeout} s"
            raise StartError(f"{self.binary} {how}: {' / '.join(self.output) or 'no output'}")
        self.start_seconds = time.monotonic() - started
        self.port = int(found.group(1))
        self.base = f"http://127.0.0.1:{self.port}"

    @property
    def pid(self):
        return self.process.pid

    def stop(self, grace=15):
        return stop(self.process, grace)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def request(self, method, path, body=None, headers=None, timeout=30):
        """(status, headers, body bytes) of one request on a connection of its own; `body` is bytes, text
        or a JSON value (sent as application/json unless headers say otherwise)."""
        headers = dict(headers or {})
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        if body is not None:
            headers.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(self.base + path, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def get(self, path):
        """(status, headers, body bytes) of a GET."""
        return self.request("GET", path)

    def post(self, path, body, origin=None):
        """POSTs JSON (text as it is, or a value); returns (status, headers, parsed answer)."""
        status, headers, answer = self.request("POST", path, body, {"Origin": origin} if origin else None)
        return status, headers, json.loads(answer or b"null")

    def index(self):
        """GET /: the service's name, version and every endpoint (the feature registry's POST paths among them)."""
        status, _, body = self.get("/")
        if status != 200:
            raise RuntimeError(f"GET / answered {status}")
        return json.loads(body)


def http_status(port, method, path, body=None, headers=None, timeout=2.0):
    """The status of one request to 127.0.0.1:port on a connection of its own, or None when none came."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        response.read()
        connection.close()
        return response.status
    except (OSError, http.client.HTTPException):
        return None


# -------------------------------------------------------------------------------------------------
# The requests every build answers 200: GETs and the POST examples of openapi.yaml
# -------------------------------------------------------------------------------------------------

EXAMPLE_GETS = ["/healthz", "/", "/readyz", "/openapi.yaml", "/clients/trellis.mjs", "/v1/fonts"]


def post_examples(spec_path=SPEC):
    """(label, path, content type, body bytes) for every POST requestBody example of openapi.yaml: its
    `example` or `examples.*.value`, else its schema's `example` or `examples`; JSON ones compact."""
    import yaml

    class SpecLoader(yaml.SafeLoader):
        """YAML as JSON sees it: dates stay strings (an example must survive json.dumps)."""

    SpecLoader.yaml_implicit_resolvers = {
        key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    with open(spec_path) as f:
        spec = yaml.load(f, Loader=SpecLoader)

    def resolve(node):
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith("#/"):
                fatal(f"openapi.yaml: only local $refs are supported, not {ref}")
            node = spec
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    found = []
    for path, item in (spec.get("paths") or {}).items():
        operation = (resolve(item) or {}).get("post")
        body = resolve((operation or {}).get("requestBody"))
        for content_type, media in ((body or {}).get("content") or {}).items():
            media = resolve(media) or {}
            values = [("example", media["example"])] if "example" in media else []
            for name, example in (media.get("examples") or {}).items():
                example = resolve(example)
                if "value" in example:
                    values.append((f"examples.{name}", example["value"]))
            schema = resolve(media.get("schema")) or {}
            if not values and "example" in schema:
                values.append(("schema example", schema["example"]))
            if not values and isinstance(schema.get("examples"), list):
                values += [(f"schema examples[{i}]", value) for i, value in enumerate(schema["examples"])]
            for name, value in values:
                if "json" in content_type:
                    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
                else:
                    data = value.encode() if isinstance(value, str) else bytes(value)
                found.append((f"POST {path} ({name})", path, content_type, data))
    return found


def example_requests():
    """(label, method, path, body or None, headers): EXAMPLE_GETS, then every POST example."""
    cases = [(f"GET {path}", "GET", path, None, {}) for path in EXAMPLE_GETS]
    for label, path, content_type, body in post_examples():
        cases.append((label, "POST", path, body, {"Content-Type": content_type}))
    return cases
