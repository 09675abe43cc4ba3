"""A stand-in for Sublime Text's `sublime_plugin` module (see sublime.py)."""


class EventListener:
    pass


class TextCommand:
    def __init__(self, view):
        self.view = view
