// Numbers the interactive elements in the viewport (data-sandpiper-index) and describes
// the page. Runs in the page for every `view`; the numbering of the previous view is
// cleared first, so an index always refers to the latest view. A document that is still
// being committed has no elements yet: the view waits a little for its body, then
// describes whatever is there (possibly nothing) instead of failing.
(async () => {
  const BODY_PATIENCE_MS = 2000;
  const patience = Date.now() + BODY_PATIENCE_MS;
  while (!document.body && document.readyState === 'loading' && Date.now() < patience) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const MAX_ELEMENTS = 400;
  const selector = [
    'a[href]', 'button', 'input:not([type=hidden])', 'textarea', 'select', 'summary',
    '[role=button]', '[role=link]', '[role=checkbox]', '[role=radio]', '[role=tab]',
    '[role=menuitem]', '[role=option]', '[role=switch]', '[role=combobox]', '[role=textbox]',
    '[onclick]', '[contenteditable=""]', '[contenteditable=true]', '[tabindex]:not([tabindex="-1"])',
  ].join(',');
  for (const old of document.querySelectorAll('[data-sandpiper-index]')) {
    old.removeAttribute('data-sandpiper-index');
  }
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const elements = [];
  for (const el of document.querySelectorAll(selector)) {
    if (elements.length >= MAX_ELEMENTS) break;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.right < 0 || r.top > vh || r.left > vw) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || style.opacity === '0') continue;
    const index = elements.length;
    el.setAttribute('data-sandpiper-index', String(index));
    const tag = el.tagName.toLowerCase();
    const label = el.labels && el.labels.length ? el.labels[0].innerText : '';
    const text = clean(
      el.innerText || label || el.getAttribute('aria-label') || el.getAttribute('placeholder') ||
      el.value || el.getAttribute('title') || el.getAttribute('alt') || el.getAttribute('name'));
    elements.push({
      index, tag,
      kind: el.getAttribute('type') || el.getAttribute('role') || null,
      text: text.length > 120 ? text.slice(0, 119) + '…' : text,
      href: tag === 'a' ? el.href : null,
      x: r.x, y: r.y, width: r.width, height: r.height,
    });
  }
  return {
    url: location.href,
    title: document.title,
    text: document.body ? document.body.innerText : '',
    elements,
    viewport_width: vw,
    viewport_height: vh,
    scroll_y: window.scrollY,
    page_height: Math.max(
      document.documentElement ? document.documentElement.scrollHeight : 0,
      document.body ? document.body.scrollHeight : 0),
  };
})()
