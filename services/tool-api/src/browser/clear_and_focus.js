// Focuses the element numbered INDEX and, unless APPEND, empties it the way a user's
// select-all + delete would (input events included, so frameworks see the change).
(() => {
  const el = document.querySelector('[data-sandpiper-index="INDEX"]');
  if (!el) return false;
  el.focus();
  if (!APPEND) {
    if ('value' in el) {
      el.value = '';
    } else if (el.isContentEditable) {
      el.textContent = '';
    }
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return true;
})()
