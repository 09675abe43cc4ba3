"""Drives editors/sublime/Redline.py through the stand-in modules: a view of FILE whose selection
is A-B (character offsets; more pairs are more selections, as Sublime's multiple cursors), as
Sublime Text would on a selection change, then a mention.

    python3 drive.py PLUGIN FILE context A B [A2 B2 ...]
    python3 drive.py PLUGIN FILE mention A B
    python3 drive.py PLUGIN FILE reject 0 0     (the input panel answered with $REDLINE_REASON)

Prints the status messages; exits when the plugin's background commands have ended."""

import importlib.util
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sublime  # noqa: E402  (the stand-in)


class Window:
    """Answers an input panel at once, as a user typing $REDLINE_REASON and Enter would."""

    def show_input_panel(self, caption, initial, on_done, on_change, on_cancel):
        on_done(os.environ.get("REDLINE_REASON", initial))


class View:
    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.regions = [sublime.Region(0)]
        self._settings = sublime.Settings()

    def file_name(self):
        return self.path

    def window(self):
        return Window()

    def sel(self):
        return self.regions

    def settings(self):
        return self._settings

    def rowcol(self, point):
        before = self.text[:point]
        row = before.count("\n")
        return row, len(before) - (before.rfind("\n") + 1)


def main():
    plugin, path, what, a, b = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    spec = importlib.util.spec_from_file_location("Redline", plugin)
    redline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(redline)
    if os.environ.get("REDLINE_BIN"):
        sublime.load_settings("Preferences.sublime-settings")["redline_path"] = os.environ["REDLINE_BIN"]
    view = View(path)
    more = [int(x) for x in sys.argv[6:]]
    view.regions = [sublime.Region(a, b)] + [sublime.Region(x, y) for x, y in zip(more[::2], more[1::2])]
    if what == "context":
        redline.RedlineContextListener().on_selection_modified_async(view)
    elif what == "reject":
        redline.RedlineRejectCommand(view).run(None)
    else:
        redline.RedlineMentionCommand(view).run(None)
    # Done when every timer and background command of the plugin has ended (a failure is
    # reported through one more timer, so look until none is left).
    deadline = time.time() + 30
    while time.time() < deadline:
        if all(t is threading.main_thread() for t in threading.enumerate()):
            break
        time.sleep(0.05)
    else:
        print("the plugin's background work did not end within 30 s")
        sys.exit(2)
    for m in sublime.messages:
        print(m)


main()
