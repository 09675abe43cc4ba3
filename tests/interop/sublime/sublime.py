"""A stand-in for Sublime Text's `sublime` module: just what editors/sublime/Redline.py calls,
so the test can drive the plugin outside Sublime Text (which Debian does not ship)."""

import threading

_settings = {}
messages = []
_timers = []


class Settings(dict):
    def get(self, key, default=None):
        return dict.get(self, key, default)


def load_settings(name):
    return _settings.setdefault(name, Settings())


def status_message(text):
    messages.append(text)


def _later(fn, ms):
    t = threading.Timer(ms / 1000.0, fn)
    t.daemon = True
    _timers.append(t)
    t.start()


def set_timeout(fn, ms=0):
    _later(fn, ms)


def set_timeout_async(fn, ms=0):
    _later(fn, ms)


class Region:
    def __init__(self, a, b=None):
        self.a = a
        self.b = a if b is None else b

    def begin(self):
        return min(self.a, self.b)

    def end(self):
        return max(self.a, self.b)

    def empty(self):
        return self.a == self.b
