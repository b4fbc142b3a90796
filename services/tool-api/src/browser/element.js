// Finds the element numbered INDEX by the latest view, scrolls it into view and returns
// its centre and kind; null when it is gone (the page changed since the view).
(() => {
  const el = document.querySelector('[data-sandpiper-index="INDEX"]');
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2, tag: el.tagName.toLowerCase() };
})()
