// Test environment fixes: make happy-dom behave like a browser where CodeMirror depends on it.

// Browsers fire `selectionchange` after the current task; happy-dom fires it synchronously, which
// re-enters CodeMirror in the middle of its own update ("Calls to EditorView.update are not allowed").
const dispatch = document.dispatchEvent.bind(document);
document.dispatchEvent = (event: Event): boolean => {
  if (event.type === 'selectionchange') {
    setTimeout(() => dispatch(event), 0);
    return true;
  }
  return dispatch(event);
};
