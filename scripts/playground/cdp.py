"""A small driver for headless Chromium over the DevTools protocol, and the servers the playground tests use.

Chromium is started with --remote-debugging-pipe: it reads protocol messages on its fd 3 and writes
them on its fd 4, each a JSON object followed by a NUL byte, so no websocket client is needed.
Python 3 standard library only. Every wait has a deadline; nothing blocks forever.
"""

import base64
import fcntl
import functools
import http.server
import json
import os
import pathlib
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request


class BrowserError(Exception):
    pass


class Browser:
    """One headless Chromium process; `page()` opens a tab."""

    def __init__(self, chromium=None, timeout=20.0):
        self.chromium = chromium or shutil.which("chromium") or shutil.which("chromium-browser")
        if not self.chromium:
            raise BrowserError("chromium is not installed (make browser-deps installs Debian's chromium)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="trellis-chromium-")
        commands_read, commands_write = os.pipe()
        answers_read, answers_write = os.pipe()
        # Move the child's ends above 10 so that dup2 onto 3 and 4 can't clobber one another.
        child_in = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
        child_out = fcntl.fcntl(answers_write, fcntl.F_DUPFD, 10)
        os.close(commands_read)
        os.close(answers_write)

        def wire_pipes():
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.process = subprocess.Popen(
            [
                self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--mute-audio", "--hide-scrollbars",
                "--force-color-profile=srgb", "--font-render-hinting=none", "about:blank",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=wire_pipes, close_fds=True,
        )
        os.close(child_in)
        os.close(child_out)
        self.writer = os.fdopen(commands_write, "wb", buffering=0)
        self.reader = os.fdopen(answers_read, "rb", buffering=0)
        self.next_id = 0
        self.lock = threading.Lock()
        self.answers = {}
        self.answered = threading.Condition(self.lock)
        self.pages = {}
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()
        self.call("Browser.getVersion", timeout=timeout)

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = self.reader.read(65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self.lock:
                    self.closed = True
                    self.answered.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self.lock:
                        self.answers[message["id"]] = message
                        self.answered.notify_all()
                elif message.get("sessionId") in self.pages:
                    self.pages[message["sessionId"]].observe(message.get("method"), message.get("params", {}))

    def call(self, method, params=None, session=None, timeout=None):
        with self.lock:
            self.next_id += 1
            ident = self.next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.writer.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        with self.lock:
            while ident not in self.answers:
                left = deadline - time.monotonic()
                if self.closed:
                    raise BrowserError(f"chromium exited during {method}")
                if left <= 0:
                    raise BrowserError(f"no answer to {method} within {timeout or self.timeout} s")
                self.answered.wait(left)
            answer = self.answers.pop(ident)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message')} {answer['error'].get('data', '')}")
        return answer.get("result", {})

    def page(self, width=1280, height=900):
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, target, session)
        self.pages[session] = page
        page.start(width, height)
        return page

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except BrowserError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        for stream in (self.writer, self.reader):
            try:
                stream.close()
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """One tab: navigate, evaluate JavaScript, wait for conditions, click, capture."""

    def __init__(self, browser, target, session):
        self.browser = browser
        self.target = target
        self.session = session
        self.exceptions = []
        self.requests = []  # (method, url, body or None), in the order the page sent them
        self.console_errors = []

    def start(self, width, height):
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call("Network.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def call(self, method, params=None, timeout=None):
        return self.browser.call(method, params, session=self.session, timeout=timeout)

    def observe(self, method, params):
        """Called on the reader thread for each event of this tab: keeps exceptions, console errors, requests."""
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.exceptions.append(details.get("exception", {}).get("description") or details.get("text"))
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.console_errors.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", [])))
        elif method == "Network.requestWillBeSent":
            request = params["request"]
            self.requests.append((request["method"], request["url"], request.get("postData")))

    def navigate(self, url, timeout=20):
        result = self.call("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise BrowserError(f"navigating to {url}: {result['errorText']}")
        self.wait("document.readyState === 'complete'", timeout=timeout, what=f"{url} to load")

    def evaluate(self, expression, timeout=None):
        """The value of a JavaScript expression (promises awaited), as JSON-compatible Python."""
        result = self.call("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": True,
        }, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(f"{expression[:80]}…: {details.get('exception', {}).get('description') or details.get('text')}")
        return result["result"].get("value")

    def wait(self, expression, timeout=15, what=None, interval=0.05):
        """Polls until the expression is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out after {timeout} s waiting for {what or expression}")
            time.sleep(interval)

    def click(self, selector):
        """A real mouse click (pressed and released) at the centre of the element."""
        point = self.evaluate(f"""(() => {{
            const element = document.querySelector({json.dumps(selector)});
            if (!element) return null;
            element.scrollIntoView({{block: 'center', inline: 'nearest'}});
            const r = element.getBoundingClientRect();
            return {{x: r.left + r.width / 2, y: r.top + r.height / 2}};
        }})()""")
        if not point:
            raise BrowserError(f"nothing matches {selector}")
        self.click_at(point["x"], point["y"])

    def click_at(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, path, selector, margin=0):
        """A PNG of one element (scrolled into view), saved to `path`."""
        box = self.evaluate(f"""(() => {{
            const element = document.querySelector({json.dumps(selector)});
            element.scrollIntoView({{block: 'start'}});
            const r = element.getBoundingClientRect();
            return {{x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}};
        }})()""")
        clip = {"x": max(0, box["x"] - margin), "y": max(0, box["y"] - margin),
                "width": box["width"] + 2 * margin, "height": box["height"] + 2 * margin, "scale": 1}
        data = self.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})["data"]
        pathlib.Path(path).write_bytes(base64.b64decode(data))


# -------------------------------------------------------------------------------------------------
# Servers
# -------------------------------------------------------------------------------------------------

class Trellis:
    """The trellis binary on a port the kernel picks (--port 0; it prints the port it got)."""

    def __init__(self, binary, *arguments, timeout=15):
        self.process = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", "0", "--log", "off", "--threads", "2", *arguments],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = _read_line(self.process.stderr, timeout)
        if "listening on " not in line:
            self.stop()
            raise BrowserError(f"{binary} did not start: {line.strip()!r}")
        self.port = int(line.strip().rsplit(":", 1)[1].split()[0])
        self.base = f"http://127.0.0.1:{self.port}"

    def post(self, path, body, origin=None):
        """POSTs JSON (a str or an object); returns (status, headers, parsed body)."""
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if origin:
            headers["Origin"] = origin
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, dict(response.headers), json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read() or b"null")

    def get(self, path):
        try:
            with urllib.request.urlopen(self.base + path, timeout=10) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def has_endpoint(self, path):
        """Whether this build routes POST `path` (an unknown path is a 404)."""
        request = urllib.request.Request(self.base + path, method="OPTIONS")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status == 204
        except urllib.error.HTTPError as error:
            return error.code != 404

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()


def _read_line(stream, timeout):
    lines = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        return ""


class StaticSite:
    """A plain http.server for a folder on an ephemeral port: a page from another origin."""

    def __init__(self, folder):
        handler = functools.partial(_QuietHandler, directory=str(folder))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
