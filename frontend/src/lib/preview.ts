// What kind of preview a file gets, by its name. A `document` (HTML, SVG) could run
// script, so it is shown only in a sandboxed frame.
export type PreviewKind = 'image' | 'document' | 'pdf' | 'markdown' | 'text' | 'none'

const IMAGE = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'ico', 'avif']
/** Documents by extension, with the type they are shown as whatever the server said. */
export const DOCUMENT_TYPES: Record<string, string> = {
  html: 'text/html', htm: 'text/html', xhtml: 'text/html', svg: 'image/svg+xml',
}
const BINARY = ['zip', 'gz', 'tgz', 'tar', 'bz2', 'xz', '7z', 'exe', 'bin', 'so', 'o', 'a', 'class', 'jar',
  'woff', 'woff2', 'ttf', 'otf', 'mp3', 'mp4', 'mov', 'webm', 'ogg', 'wav', 'doc', 'docx', 'xls', 'xlsx',
  'ppt', 'pptx', 'sqlite', 'db', 'pyc', 'wasm']

/** The most bytes of a text file fetched for a preview. */
export const TEXT_PREVIEW_BYTES = 512 * 1024

export function extensionOf(name: string): string {
  return name.includes('.') ? name.split('.').pop()!.toLowerCase() : ''
}

export function previewKind(name: string): PreviewKind {
  const extension = extensionOf(name)
  if (IMAGE.includes(extension)) return 'image'
  if (extension in DOCUMENT_TYPES) return 'document'
  if (extension === 'pdf') return 'pdf'
  if (extension === 'md' || extension === 'markdown') return 'markdown'
  if (BINARY.includes(extension)) return 'none'
  return 'text'
}
