// Test environment fixes: make happy-dom behave like a browser where CodeMirror depends on it.

// Browsers fire `selectionchange` after the current task; happy-dom fires it synchronously, which
// re-enters CodeMirror in the middle of its own update ("Calls to EditorView.update are not allowed").
// happy-dom dispatches the deferred event through document.dispatchEvent again on its way
// through the phases: deferring it a second time doubled the events at every turn (98,304 timers
// and a heap out of memory within seconds of the first selection), so each is deferred once.
const dispatch = document.dispatchEvent.bind(document);
const deferred = new WeakSet<Event>();
document.dispatchEvent = (event: Event): boolean => {
  if (event.type === 'selectionchange' && !deferred.has(event)) {
    deferred.add(event);
    setTimeout(() => dispatch(event), 0);
    return true;
  }
  return dispatch(event);
};
