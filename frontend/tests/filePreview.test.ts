// File previews: what could run script (HTML, SVG) is framed without scripts or the app's
// origin, typed as what its name says; other kinds keep their own elements.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import FilePreview from '../src/components/FilePreview.vue'
import { previewKind } from '../src/lib/preview'

const HOSTILE = '<script>parent.document.title = "taken"</script><p>hello</p>'

/** FilePreview of `name`, the server answering with `body` as `type`; the blobs made. */
async function preview(name: string, body: string, type: string) {
  const blobs: Blob[] = []
  vi.stubGlobal('fetch', async () => new Response(body, { status: 200, headers: { 'Content-Type': type } }))
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob)
    return `blob:preview-${blobs.length}`
  })
  const entry = { name, path: `/workspace/${name}`, kind: 'file' as const, size: body.length, mtime_ms: 0 }
  const wrapper = mount(FilePreview, { props: { sessionId: 's1', entry, version: 0 } })
  await flushPromises()
  return { wrapper, blobs }
}

describe('previewKind', () => {
  it('treats HTML and SVG as documents, not images or text', () => {
    expect(['page.html', 'INDEX.HTM', 'a.xhtml', 'chart.svg'].map(previewKind)).toEqual(
      ['document', 'document', 'document', 'document'])
    expect(['photo.png', 'notes.md', 'main.rs', 'paper.pdf'].map(previewKind)).toEqual(
      ['image', 'markdown', 'text', 'pdf'])
  })
})

describe('FilePreview', () => {
  beforeEach(() => localStorage.clear())
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it.each([
    ['page.html', 'text/html'],
    ['chart.svg', 'image/svg+xml'],
  ])('frames %s in a sandbox without scripts or the same origin', async (name, type) => {
    // The server's type is not trusted to decide how the bytes are drawn.
    const { wrapper, blobs } = await preview(name, HOSTILE, 'application/octet-stream')
    const frame = wrapper.get('[data-test=document-preview]')
    expect(frame.element.tagName).toBe('IFRAME')
    expect(frame.attributes('sandbox')).toBe('')
    expect(frame.attributes('src')).toBe('blob:preview-1')
    expect(blobs.map((b) => b.type)).toEqual([type])
    expect(wrapper.find('img').exists()).toBe(false)
    expect(wrapper.html()).not.toContain('parent.document')
  })

  it('shows an image as an image, typed as the server said', async () => {
    const { wrapper, blobs } = await preview('photo.png', 'png bytes', 'image/png')
    expect(wrapper.get('img').attributes('src')).toBe('blob:preview-1')
    expect(blobs.map((b) => b.type)).toEqual(['image/png'])
    expect(wrapper.find('iframe').exists()).toBe(false)
  })
})
