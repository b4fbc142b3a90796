// Chooses OPTION (a value or a visible label) in the <select> numbered INDEX. Returns
// {status: 'ok'|'gone'|'not_select'|'no_option', options: [...labels]}.
(() => {
  const el = document.querySelector('[data-sandpiper-index="INDEX"]');
  if (!el) return { status: 'gone', options: [] };
  if (el.tagName.toLowerCase() !== 'select') return { status: 'not_select', options: [] };
  const wanted = OPTION;
  const options = Array.from(el.options);
  const match = options.find((o) => o.value === wanted) || options.find((o) => o.text.trim() === wanted);
  if (!match) return { status: 'no_option', options: options.map((o) => o.text.trim()) };
  el.value = match.value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { status: 'ok', options: [] };
})()
