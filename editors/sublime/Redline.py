"""Redline for Sublime Text: tells the AI coding CLIs connected to Redline which file is active,
where the cursor is and what is selected, and points them at lines on request.

Sublime Text's plugins run in its own Python and cannot keep a child process's pipes easily, so
this plugin uses Redline's one-shot commands (docs/editors.md):

    redline context --file F --line L --col C [--selection L1:C1-L2:C2]...
    redline mention F:L1-L2

and, to reject, one message on a channel of its own (`redline editor --stdio`, closed once
answered).

Install: copy this file (and Default.sublime-commands) into Packages/Redline/ (Preferences >
Browse Packages...). Settings (Preferences > Settings, or Redline.sublime-settings):

    "redline_path": "redline"     // the redline binary, if not on PATH
    "redline_context": true       // send the context on selection changes

Commands: "Redline: Mention Selected Lines" (redline_mention), "Redline: Send Context"
(redline_context), "Redline: Reject" (redline_reject: rejects the pending review of this file,
asking for an optional reason). Positions are 1-based, columns in characters. The selected text Redline
forwards is read from the file on disk: save first for unsaved edits to show.
"""

import json
import os
import subprocess
import threading

import sublime
import sublime_plugin

# Selection changes closer together than this are sent once.
DEBOUNCE_MS = 150
# Redline keeps at most this many selections of one file.
MAX_RANGES = 64
_generation = 0
_last_args = None
_running = None  # the context command in flight, so they never pile up
_lock = threading.Lock()


def _setting(name, default):
    value = sublime.load_settings("Preferences.sublime-settings").get(name)
    if value is None:
        value = sublime.load_settings("Redline.sublime-settings").get(name, default)
    return value


def _popen_flags():
    # No console window on Windows; a process group of its own elsewhere.
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NO_WINDOW", 0)}
    return {"start_new_session": True}


def _run(args, on_failure=None):
    """Runs `redline ARGS` without blocking; on_failure(message) if it fails."""
    cmd = [_setting("redline_path", "redline")] + args

    def wait():
        try:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                **_popen_flags()
            )
        except OSError as e:
            if on_failure:
                on_failure("cannot run %s: %s" % (cmd[0], e))
            return None
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            err = b"timed out"
        if proc.returncode != 0 and on_failure:
            text = err.decode("utf-8", "replace").strip().splitlines()
            last = text[-1] if text else "exited with status %d" % proc.returncode
            on_failure(last[len("redline: "):] if last.startswith("redline: ") else last)
        return proc.returncode

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    return thread


def _ask(message, on_answer):
    """Sends one message on a channel of its own and calls on_answer(reply) with Redline's
    answer to it (an `ok` or an `error`), without blocking."""
    cmd = [_setting("redline_path", "redline"), "editor", "--stdio"]

    def talk():
        try:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                **_popen_flags()
            )
        except OSError as e:
            on_answer({"type": "error", "message": "cannot run %s: %s" % (cmd[0], e)})
            return
        # A Redline that never answers does not keep the thread.
        timer = threading.Timer(30, proc.kill)
        timer.start()
        answer = {"type": "error", "message": "Redline ended the channel without an answer"}
        try:
            proc.stdin.write((json.dumps(dict(message, id=1)) + "\n").encode("utf-8"))
            proc.stdin.flush()
            for raw in proc.stdout:
                try:
                    reply = json.loads(raw.decode("utf-8", "replace"))
                except ValueError:
                    continue
                # Its answer to this message, or an error before any (Redline not running).
                if reply.get("id") == 1 or reply.get("type") == "error":
                    answer = reply
                    break
        except OSError as e:
            answer = {"type": "error", "message": str(e)}
        finally:
            timer.cancel()
            try:
                proc.stdin.close()
            except OSError:
                pass
            proc.wait()
        on_answer(answer)

    thread = threading.Thread(target=talk, daemon=True)
    thread.start()
    return thread


def _status(message):
    sublime.set_timeout(lambda: sublime.status_message("Redline: " + message), 0)


def _pos(view, point):
    row, col = view.rowcol(point)
    return row + 1, col + 1


def _context_args(view):
    path = view.file_name()
    if not path or not view.sel():
        return None
    region = view.sel()[0]
    line, col = _pos(view, region.b)
    args = ["context", "--file", path, "--line", str(line), "--col", str(col)]
    # Every selection (Sublime's multiple cursors), the first leading: Redline keeps 64.
    for region in [r for r in view.sel() if not r.empty()][:MAX_RANGES]:
        l1, c1 = _pos(view, region.begin())
        l2, c2 = _pos(view, region.end())
        args += ["--selection", "%d:%d-%d:%d" % (l1, c1, l2, c2)]
    return args


def _send_context(view, generation):
    global _last_args, _running
    with _lock:
        if generation != _generation:
            return
        args = _context_args(view)
        if args is None or args == _last_args:
            return
        if _running is not None and _running.is_alive():
            # The previous one is still running: try again shortly.
            sublime.set_timeout_async(lambda: _send_context(view, generation), DEBOUNCE_MS)
            return
        _last_args = args
        _running = _run(args)


def _schedule(view):
    global _generation
    if not _setting("redline_context", True) or view.settings().get("is_widget"):
        return
    with _lock:
        _generation += 1
        generation = _generation
    sublime.set_timeout_async(lambda: _send_context(view, generation), DEBOUNCE_MS)


class RedlineContextListener(sublime_plugin.EventListener):
    """Sends the active file, cursor and selection to Redline after they change (debounced)."""

    def on_selection_modified_async(self, view):
        _schedule(view)

    def on_activated_async(self, view):
        _schedule(view)

    def on_post_save_async(self, view):
        _schedule(view)


class RedlineContextCommand(sublime_plugin.TextCommand):
    """Sends the context now."""

    def run(self, edit):
        global _last_args
        args = _context_args(self.view)
        if args is None:
            _status("this view is not a saved file")
            return
        _last_args = args
        _run(args, _status)


class RedlineMentionCommand(sublime_plugin.TextCommand):
    """Points the AI CLIs connected to Redline at the selected lines (or the cursor's line)."""

    def run(self, edit):
        path = self.view.file_name()
        if not path:
            _status("this view is not a saved file")
            return
        region = self.view.sel()[0]
        first = self.view.rowcol(region.begin())[0] + 1
        end = region.end()
        # A selection ending at the start of a line does not take that line.
        if end > region.begin() and self.view.rowcol(end)[1] == 0:
            end -= 1
        last = self.view.rowcol(end)[0] + 1
        _status("mentioned %s:%d-%d" % (os.path.basename(path), first, last))
        _run(["mention", "%s:%d-%d" % (path, first, last)], _status)

    def is_enabled(self):
        return bool(self.view.file_name())


class RedlineRejectCommand(sublime_plugin.TextCommand):
    """Rejects the pending review of this file; the reason typed (optional) goes to its CLI."""

    def run(self, edit):
        path = self.view.file_name()
        if not path:
            _status("this view is not a saved file")
            return
        self.view.window().show_input_panel(
            "Reject; reason (optional):", "", lambda reason: self.reject(path, reason), None, None
        )

    def reject(self, path, reason):
        message = {"type": "reject", "path": path}
        if reason.strip():
            message["reason"] = reason

        def answered(reply):
            if reply.get("type") == "error":
                _status("reject: " + reply.get("message", "failed"))
            elif reply.get("reasonSent") is False:
                _status(
                    "rejected the review of %s (its CLI takes no reason: yours was not sent)"
                    % os.path.basename(path)
                )
            else:
                _status("rejected the review of " + os.path.basename(path))

        _ask(message, answered)

    def is_enabled(self):
        return bool(self.view.file_name())
