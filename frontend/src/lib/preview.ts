// What kind of preview a file gets, by its name.
export type PreviewKind = 'image' | 'pdf' | 'markdown' | 'text' | 'none'

const IMAGE = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'bmp', 'ico', 'avif']
const BINARY = ['zip', 'gz', 'tgz', 'tar', 'bz2', 'xz', '7z', 'exe', 'bin', 'so', 'o', 'a', 'class', 'jar',
  'woff', 'woff2', 'ttf', 'otf', 'mp3', 'mp4', 'mov', 'webm', 'ogg', 'wav', 'doc', 'docx', 'xls', 'xlsx',
  'ppt', 'pptx', 'sqlite', 'db', 'pyc', 'wasm']

/** The most bytes of a text file fetched for a preview. */
export const TEXT_PREVIEW_BYTES = 512 * 1024

export function previewKind(name: string): PreviewKind {
  const extension = name.includes('.') ? name.split('.').pop()!.toLowerCase() : ''
  if (IMAGE.includes(extension)) return 'image'
  if (extension === 'pdf') return 'pdf'
  if (extension === 'md' || extension === 'markdown') return 'markdown'
  if (BINARY.includes(extension)) return 'none'
  return 'text'
}
