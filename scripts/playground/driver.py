"""Headless Chromium through Selenium and Debian's chromedriver, and a static site (another origin) for the
playground's tests; the trellis servers are scripts/trellis_harness.py's.

One WebDriver session drives one Chromium; `Browser.page()` opens a tab. Selenium's own calls do the
navigating, waiting, clicking (W3C pointer actions at a point) and log reading; Chromium's DevTools
commands go through `execute_cdp_cmd` where WebDriver has no equivalent (evaluating with promises
awaited, the viewport, a clipped screenshot). What a tab logged comes from chromedriver's logs:
'browser' for uncaught exceptions and console errors, 'performance' for the requests it sent (each
event names its tab). Every wait has a deadline; nothing blocks forever.
"""

import base64
import functools
import http.server
import json
import pathlib
import shutil
import threading

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM_ARGUMENTS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--mute-audio", "--hide-scrollbars",
    "--force-color-profile=srgb", "--font-render-hinting=none",
]


class BrowserError(Exception):
    pass


class Browser:
    """One headless Chromium under chromedriver; `page()` opens a tab."""

    def __init__(self, chromium=None, chromedriver=None, timeout=20.0):
        chromium = chromium or shutil.which("chromium") or shutil.which("chromium-browser")
        chromedriver = chromedriver or shutil.which("chromedriver")
        if not chromium or not chromedriver:
            raise BrowserError("chromium or chromedriver is not installed "
                               "(make browser-deps installs Debian's chromium and chromium-driver)")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in CHROMIUM_ARGUMENTS:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
        self.timeout = timeout
        try:
            # An explicit chromedriver: Selenium Manager never looks for (or downloads) another.
            self.driver = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
        except WebDriverException as error:
            raise BrowserError(f"chromedriver could not start {chromium}: {error.msg}") from error
        self.driver.set_page_load_timeout(timeout)
        self.driver.set_script_timeout(timeout)
        self.pages = {}  # window handle (the tab's DevTools target id) → Page
        self.current = None
        self.first_tab_used = False

    def page(self, width=1280, height=900):
        self._collect_logs()
        if self.first_tab_used:
            self.driver.switch_to.new_window("tab")
        self.first_tab_used = True
        page = Page(self, self.driver.current_window_handle)
        self.pages[page.handle] = page
        self.current = page
        page.start(width, height)
        return page

    def activate(self, page):
        """Makes `page` WebDriver's current tab; what the previous tab logged is kept for it first."""
        if self.current is not page:
            self._collect_logs()
            self.driver.switch_to.window(page.handle)
            self.current = page

    def _collect_logs(self):
        """Files chromedriver's buffered log entries under the tab that wrote them."""
        if self.current is not None:
            for entry in self.driver.get_log("browser"):
                # The browser log names no tab: its entries belong to the current one, which is the only one at work.
                self.current.observe_log(entry)
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])
            page = self.pages.get(message.get("webview"))
            if page is not None:
                page.observe_event(message["message"].get("method"), message["message"].get("params", {}))

    def close(self):
        try:
            self.driver.quit()
        except WebDriverException:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """One tab: navigate, evaluate JavaScript, wait for conditions, click, capture."""

    def __init__(self, browser, handle):
        self.browser = browser
        self.driver = browser.driver
        self.handle = handle
        self._exceptions = []
        self._requests = []  # (method, url, body or None), in the order the page sent them
        self._console_errors = []

    def start(self, width, height):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def call(self, method, params=None):
        """One DevTools command to this tab."""
        self.browser.activate(self)
        try:
            return self.driver.execute_cdp_cmd(method, params or {})
        except WebDriverException as error:
            raise BrowserError(f"{method}: {error.msg}") from error

    def observe_log(self, entry):
        """A 'browser' log entry: uncaught exceptions come from 'javascript', console.error from 'console-api'."""
        if entry.get("source") == "javascript":
            self._exceptions.append(entry["message"])
        elif entry.get("source") == "console-api" and entry.get("level") == "SEVERE":
            self._console_errors.append(entry["message"])

    def observe_event(self, method, params):
        """A 'performance' log event of this tab: keeps the requests it sent."""
        if method == "Network.requestWillBeSent":
            request = params["request"]
            self._requests.append((request["method"], request["url"], request.get("postData")))

    @property
    def exceptions(self):
        self.browser.activate(self)
        self.browser._collect_logs()
        return self._exceptions

    @property
    def console_errors(self):
        self.browser.activate(self)
        self.browser._collect_logs()
        return self._console_errors

    @property
    def requests(self):
        self.browser._collect_logs()
        return self._requests

    def navigate(self, url, timeout=20):
        """Loads `url` and waits until document.readyState is complete (WebDriver's normal page load). The
        requests, exceptions and console errors kept from then on are this page's only."""
        self.browser.activate(self)
        self.browser._collect_logs()
        self._requests, self._exceptions, self._console_errors = [], [], []
        self.driver.set_page_load_timeout(timeout)
        try:
            self.driver.get(url)
        except TimeoutException as error:
            raise BrowserError(f"timed out after {timeout} s waiting for {url} to load") from error
        except WebDriverException as error:
            raise BrowserError(f"navigating to {url}: {error.msg}") from error
        finally:
            self.driver.set_page_load_timeout(self.browser.timeout)

    def evaluate(self, expression):
        """The value of a JavaScript expression (promises awaited), as JSON-compatible Python."""
        result = self.call("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": True,
        })
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(f"{expression[:80]}…: {details.get('exception', {}).get('description') or details.get('text')}")
        return result["result"].get("value")

    def wait(self, expression, timeout=15, what=None, interval=0.05):
        """Polls until the expression is truthy; returns its value."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=interval).until(lambda _: self.evaluate(expression))
        except TimeoutException as error:
            raise BrowserError(f"timed out after {timeout} s waiting for {what or expression}") from error

    def click(self, selector):
        """A real mouse click (pressed and released) at the centre of the element, whatever lies on top."""
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
        """W3C pointer actions: move to the viewport point (x, y), press and release the left button."""
        self.browser.activate(self)
        actions = ActionBuilder(self.driver, duration=0)
        actions.pointer_action.move_to_location(round(x), round(y)).click()
        actions.perform()
        self.browser._collect_logs()  # keeps chromedriver's buffers short

    def screenshot(self, path, selector, margin=0):
        """A PNG of one element (scrolled into view) and `margin` pixels around it, saved to `path`."""
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
# Another origin
# -------------------------------------------------------------------------------------------------

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
