"""Fixtures for the browser tests: the server on a fresh SQLite store, the `cart` CLI on the
same store, and headless Debian Chromium driven through its chromedriver.

scripts/browser-tests.sh builds `cart` and runs these; CART_BIN names it. The server is
`cart --db DB serve --listen 127.0.0.1:PORT`, the command a person runs.
"""

import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
CART = os.environ.get("CART_BIN", str(ROOT / ".build/debug/cart"))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = Path(os.environ.get("CART_SCREENSHOTS", ROOT / ".build/screenshots"))
STARTUP_SECONDS = 60
# The server runs with an admin token, as a shop reachable by strangers would: the page never
# has it, so it reaches only the carts the server minted.
ADMIN_TOKEN = "browser-tests-admin-token-0123456789"


class Server:
    """The shop's server on one SQLite store, on port 0 at first and on that same port after
    a restart, and the `cart` CLI on the same store."""

    def __init__(self, directory):
        self.directory = Path(directory)
        self.db = self.directory / "shop.sqlite3"
        self.log = self.directory / "server.log"
        self.port = 0
        self.process = None
        self.url = ""
        # More `cart serve` options, for a test that restarts the server with them.
        self.options = ()

    def start(self):
        """Starts the server and waits for its one `Listening on http://HOST:PORT` line."""
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [CART, "--db", str(self.db), "serve", "--listen", f"127.0.0.1:{self.port}", *self.options],
                stdout=subprocess.PIPE, stderr=log, text=True, env=os.environ | {"CART_ADMIN_TOKEN": ADMIN_TOKEN})
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        ready = selector.select(timeout=STARTUP_SECONDS)
        selector.close()
        line = self.process.stdout.readline() if ready else ""
        match = re.fullmatch(r"Listening on (http://127\.0\.0\.1:(\d+))\n", line)
        if not match:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"the server did not say where it listens (got {line!r}); see {self.log}:\n"
                               + self.log.read_text(errors="replace")[-2000:])
        self.url = match[1]
        self.port = int(match[2])

    def stop(self):
        """Stops the server with SIGTERM, as a person or a service manager would."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
            self.process = None
        assert status == 0, f"the server exited with {status}; see {self.log}"

    def cli(self, *arguments, cart=None):
        """Runs `cart --db DB [--cart ID] ARGUMENTS...` in another process; answers its stdout."""
        command = [CART, "--db", str(self.db)] + (["--cart", cart] if cart else []) + list(arguments)
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}: {done.stderr}"
        return done.stdout

    def api(self, method, path, body=None, headers=None):
        """One request to the API; answers (status, JSON body)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=dict(headers or {}))
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def mint(self, lines=()):
        """A cart the server mints, holding `lines` ((sku, quantity), ...)."""
        status, cart = self.api("POST", "/v1/carts")
        assert status == 201, cart
        for sku, quantity in lines:
            status, body = self.api("POST", f"/v1/carts/{cart['cart']}/items", {"sku": sku, "quantity": quantity})
            assert status == 200, body
        return cart["cart"]

    def cart(self, cart_id):
        status, cart = self.api("GET", f"/v1/carts/{cart_id}")
        assert status == 200, cart
        return cart

    def orders(self, cart_id):
        status, page = self.api("GET", f"/v1/carts/{cart_id}/orders?limit=100")
        assert status == 200, page
        return page["orders"]


@pytest.fixture(scope="session")
def server():
    directory = tempfile.mkdtemp(prefix="cart-shop-")
    shop = Server(directory)
    # The demo's catalog (twelve products, some with stock), and one sold out.
    shop.cli("demo")
    shop.cli("products", "add", "saffron", "--name", "Saffron, 1 g", "--price", "9.99", "--stock", "0")
    shop.start()
    yield shop
    shop.stop()
    shutil.rmtree(directory, ignore_errors=True)


def chromium_missing():
    return [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]


def new_browser(preferences=None):
    """A headless Chromium of its own (its own profile, so its own localStorage), in en-US, the
    notation the tests expect amounts in ("$1.29"); `preferences` are Chromium's own (a
    larger default text size, say)."""
    missing = chromium_missing()
    if missing:
        message = f"Chromium is needed for the browser tests: missing {', '.join(missing)}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--lang=en-US", "--disable-background-timer-throttling",
                     "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if preferences:
        options.add_experimental_option("prefs", preferences)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
    # Selenium waits for chromedriver's answer to a command without a limit by default: a
    # hung browser would hold the run until CI's own limit, not fail the test.
    driver.command_executor.client_config.timeout = 120
    jitter = int(os.environ.get("SHOP_JITTER_MS", "0"))
    if jitter:
        # Every answer to the page's fetches is held back a random 0 to SHOP_JITTER_MS ms, so
        # that events often come before the answers they follow: a shop that depends on the
        # order of the two fails.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": f"""
            const sent = window.fetch;
            window.fetch = async (...args) => {{
              const response = await sent(...args);
              await new Promise((resolve) => setTimeout(resolve, Math.random() * {jitter}));
              return response;
            }};
        """})
    return driver


class Browsers:
    """Browsers made on demand and kept for the session; each test starts on a blank page."""

    def __init__(self):
        self.drivers = []

    def get(self, index):
        while len(self.drivers) <= index:
            self.drivers.append(new_browser())
        return self.drivers[index]

    def quit(self):
        for driver in self.drivers:
            driver.quit()


@pytest.fixture(scope="session")
def browsers():
    made = Browsers()
    yield made
    made.quit()


# Console messages that mean the page broke its own rules or threw: a policy violation, a
# Trusted Types refusal, an uncaught exception. Failed requests the tests cause on purpose
# (a 422, the server being down) are logged too and are not these.
PAGE_FAULT = re.compile(r"Content Security Policy|Trusted Type|TrustedHTML|Uncaught", re.IGNORECASE)


def page_faults(driver):
    return [entry["message"] for entry in driver.get_log("browser") if PAGE_FAULT.search(entry["message"])]


@pytest.fixture
def browser(browsers, server):
    """The first browser, reset to one window on a blank page and a shop that has given it no
    cart yet; its console must stay clean."""
    yield from _reset(browsers, 0, server)


@pytest.fixture
def second_browser(browsers, server):
    """Another browser, with its own storage."""
    yield from _reset(browsers, 1, server)


def _reset(browsers, index, server):
    driver = browsers.get(index)
    # Each test starts as a new shopper: the cart an earlier test left in the page's storage
    # would otherwise be joined into the cart the next one opens.
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": server.url, "storageTypes": "local_storage"})
    for handle in driver.window_handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.get("about:blank")
    driver.get_log("browser")
    yield driver
    faults = page_faults(driver)
    assert not faults, f"the page logged faults: {faults}"


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def wait_until(condition, timeout=15, message="condition", interval=0.05):
    """Polls `condition()` until it is truthy; answers its value, or fails after `timeout`."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # a stale element between two renders: poll again
            last_error = error
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}"
                                 + (f" (last error: {last_error})" if last_error else ""))
        time.sleep(interval)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps what a failed test's browsers showed: a screenshot, the page and its console."""
    report = yield
    if report.when == "call" and report.failed:
        for name in ("browser", "second_browser"):
            driver = item.funcargs.get(name)
            if driver is None:
                continue
            stem = SCREENSHOTS / "failures" / f"{item.name}-{name}"
            stem.parent.mkdir(parents=True, exist_ok=True)
            try:
                driver.save_screenshot(str(stem) + ".png")
                stem.with_suffix(".html").write_text(driver.page_source)
                console = "\n".join(entry["message"] for entry in driver.get_log("browser"))
                stem.with_suffix(".console.txt").write_text(console)
            except Exception as error:  # a browser that is gone leaves nothing to keep
                report.sections.append(("browser state", f"could not be kept: {error}"))
            else:
                report.sections.append(("browser state", f"kept in {stem}.*"))
    return report
