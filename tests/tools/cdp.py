#!/usr/bin/env python3
"""cdp.py - a small Chromium DevTools Protocol client (Python stdlib only) for tests.

Runs headless Chromium with --remote-debugging-pipe (the browser reads commands on its fd 3
and writes replies and events on its fd 4, each message one JSON object ended by a NUL byte),
so no port is opened and nothing else can connect. Made for the flame graph/HTML tests and
reusable by other tests (e.g. `git show flame:tests/tools/cdp.py`).

API
---
    from cdp import Browser, CdpError, find_chromium

    with Browser(width=1280, height=900) as b:        # starts chromium (find_chromium())
        page = b.open("file:///tmp/x.svg")             # new tab, waits for the load event
        page.load_seconds                              # navigation -> load event, seconds
        v = page.eval("document.title")                # JS expression -> JSON value
        v = page.eval("fetchSomething()", await_promise=True)
        page.click(100, 200)                           # left click (press+release) at CSS px
        page.move(100, 200)                            # mouse move (hover)
        page.key("Enter")                              # key press (Input.dispatchKeyEvent)
        page.screenshot("/tmp/shot.png")               # PNG of the viewport (full=True: page)
        page.errors()                                  # console errors + uncaught exceptions
        page.dialogs                                   # [{'type':'alert','message':..}, ...]
        page.send("DOM.getDocument", {})               # any CDP method of this page's session
        b.send("Browser.getVersion")                   # any browser-level method

- Browser(chromium=None, width=1280, height=900, timeout=30, extra_args=()): chromium is the
  binary (default: $CHROMIUM, else chromium/chromium-browser/google-chrome on PATH); the
  profile lives in a temporary --user-data-dir removed on close(). Flags used: --headless
  --no-sandbox (needed as root) --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync.
- Page.errors(): a list of strings: console.error/assert calls, uncaught exceptions and
  log entries of level "error" (e.g. a resource that failed to load).
- JavaScript dialogs (alert/confirm/prompt/beforeunload) are recorded in page.dialogs and
  dismissed at once (Page.javascriptDialogOpening), so a page cannot hang the test.
- eval() raises CdpError when the expression throws; every call raises CdpError on a
  protocol error and TimeoutError when the browser does not answer within timeout seconds.
- find_chromium() returns the binary's path or None (a test then exits 77, skipped).
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

__all__ = ["Browser", "Page", "CdpError", "find_chromium"]


class CdpError(Exception):
    """A protocol error reply, or a JavaScript exception from Page.eval."""


def find_chromium():
    """The Chromium binary: $CHROMIUM, else the first of the usual names on PATH, or None."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class Browser:
    """One headless Chromium process driven over --remote-debugging-pipe."""

    def __init__(self, chromium=None, width=1280, height=900, timeout=30, extra_args=()):
        self.chromium = chromium or find_chromium()
        if not self.chromium:
            raise FileNotFoundError("chromium not found")
        self.width, self.height, self.timeout = width, height, timeout
        self.tmp = tempfile.mkdtemp(prefix="jh-cdp-")
        self._id = 0
        self._buf = b""
        self._pages = {}  # sessionId -> Page
        to_r, to_w = os.pipe()  # we write commands, chromium reads on fd 3
        from_r, from_w = os.pipe()  # chromium writes on fd 4, we read

        def child_fds():
            a = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [
            self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions",
            "--user-data-dir=" + self.tmp, "--remote-debugging-pipe",
            "--window-size=%d,%d" % (width, height), *extra_args, "about:blank",
        ]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     close_fds=False, preexec_fn=child_fds)
        os.close(to_r)
        os.close(from_w)
        self._w, self._r = to_w, from_r

    # -- plumbing --------------------------------------------------------------------------
    def _write(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._w, data)
            data = data[n:]

    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("chromium did not answer")
            rl, _, _ = select.select([self._r], [], [], left)
            if not rl:
                continue
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise CdpError("chromium closed the pipe (exit %s)" % self.proc.poll())
            self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def _event(self, msg):
        page = self._pages.get(msg.get("sessionId"))
        if page is not None:
            page._event(msg["method"], msg.get("params", {}))

    def send(self, method, params=None, session=None, timeout=None):
        """Sends a CDP command (to a page's session when session is given) and returns its
        result, handling events that arrive meanwhile."""
        self._id += 1
        mid = self._id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self._write(msg)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            m = self._read_message(deadline)
            if m.get("id") == mid:
                if "error" in m:
                    raise CdpError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self._event(m)

    def wait_event(self, session, method, timeout=None):
        """Waits for the next event `method` of a session; returns its params."""
        page = self._pages[session]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, (name, params) in enumerate(page._pending):
                if name == method:
                    del page._pending[i]
                    return params
            self._event_or_reply(deadline)

    def _event_or_reply(self, deadline):
        m = self._read_message(deadline)
        if "method" in m:
            self._event(m)

    # -- pages -----------------------------------------------------------------------------
    def open(self, url, timeout=None):
        """Opens url in a new tab and waits for its load event; returns a Page."""
        t = self.send("Target.createTarget", {"url": "about:blank"})
        s = self.send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})
        page = Page(self, t["targetId"], s["sessionId"])
        self._pages[page.session] = page
        for domain in ("Page", "Runtime", "Log"):
            page.send(domain + ".enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                   "mobile": False})
        page.navigate(url, timeout)
        return page

    def close(self):
        """Ends chromium and removes its profile directory."""
        if self.proc.poll() is None:
            try:
                self.send("Browser.close", timeout=5)
            except (CdpError, TimeoutError, OSError):
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """A tab attached with a flat session; see the module docstring."""

    def __init__(self, browser, target, session):
        self.browser, self.target, self.session = browser, target, session
        self.console_errors = []  # console.error / console.assert texts
        self.exceptions = []  # uncaught exception descriptions
        self.log_errors = []  # Log.entryAdded of level error
        self.dialogs = []  # {'type', 'message'} of every JS dialog (dismissed)
        self.load_seconds = None
        self._pending = []

    def send(self, method, params=None, timeout=None):
        return self.browser.send(method, params, self.session, timeout)

    def _event(self, method, p):
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            args = p.get("args", [])
            self.console_errors.append(" ".join(
                str(a.get("value", a.get("description", ""))) for a in args))
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.exceptions.append(d.get("exception", {}).get("description") or d.get("text"))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            self.log_errors.append("%s %s" % (e.get("text"), e.get("url", "")))
        elif method == "Page.javascriptDialogOpening":
            self.dialogs.append({"type": p.get("type"), "message": p.get("message")})
            # answered without waiting for the reply (the page is blocked until then)
            self.browser._id += 1
            self.browser._write({"id": self.browser._id, "sessionId": self.session,
                                 "method": "Page.handleJavaScriptDialog",
                                 "params": {"accept": False}})
        self._pending.append((method, p))
        del self._pending[:-200]

    def navigate(self, url, timeout=None):
        """Loads url in this tab; sets load_seconds (navigation to load event)."""
        self._pending.clear()
        t0 = time.monotonic()
        r = self.send("Page.navigate", {"url": url}, timeout)
        if r.get("errorText"):
            raise CdpError("navigate %s: %s" % (url, r["errorText"]))
        self.browser.wait_event(self.session, "Page.loadEventFired", timeout)
        self.load_seconds = time.monotonic() - t0

    def eval(self, expr, await_promise=False, timeout=None):
        """The JSON value of a JavaScript expression; CdpError if it throws."""
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": await_promise}, timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CdpError("JS: %s" % (d.get("exception", {}).get("description")
                                       or d.get("text")))
        return r.get("result", {}).get("value")

    def _mouse(self, kind, x, y, **kw):
        p = {"type": kind, "x": x, "y": y}
        p.update(kw)
        self.send("Input.dispatchMouseEvent", p)

    def move(self, x, y):
        """Moves the mouse to (x, y) CSS pixels of the viewport (hover)."""
        self._mouse("mouseMoved", x, y)

    def click(self, x, y):
        """A left click at (x, y) CSS pixels of the viewport."""
        self._mouse("mouseMoved", x, y)
        self._mouse("mousePressed", x, y, button="left", clickCount=1)
        self._mouse("mouseReleased", x, y, button="left", clickCount=1)

    def key(self, key, text=None):
        """Presses and releases key (e.g. "Enter"); text is what it types, if any."""
        p = {"type": "keyDown", "key": key}
        if text:
            p["text"] = text
        self.send("Input.dispatchKeyEvent", p)
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key})

    def screenshot(self, path, full=False):
        """Writes a PNG of the viewport (or of the whole page when full) to path."""
        p = {"format": "png"}
        if full:
            p["captureBeyondViewport"] = True
        r = self.send("Page.captureScreenshot", p, timeout=60)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def errors(self):
        """Console errors, uncaught exceptions and error log entries seen so far."""
        return self.console_errors + self.exceptions + self.log_errors


if __name__ == "__main__":  # smoke test: python3 cdp.py URL
    import sys
    with Browser() as b:
        pg = b.open(sys.argv[1] if len(sys.argv) > 1 else "about:blank")
        print("load %.3f s, title %r, errors %r" % (pg.load_seconds, pg.eval("document.title"),
                                                  pg.errors()))
