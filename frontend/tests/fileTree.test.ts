import { describe, expect, it } from 'vitest'
import { emptyTree, foldersToReload, rows, setListing } from '../src/state/fileTree'
import type { FileEntry } from '../src/api/types'

const entry = (path: string, kind: FileEntry['kind'] = 'file'): FileEntry => ({
  name: path.split('/').pop()!,
  path,
  kind,
  size: 1,
  mtime_ms: 0,
})

describe('file tree', () => {
  it('shows open folders’ entries under them, indented', () => {
    const tree = emptyTree()
    setListing(tree, { path: '/w', entries: [entry('/w/out', 'dir'), entry('/w/a.txt')] })
    setListing(tree, { path: '/w/out', entries: [entry('/w/out/r.txt')] })
    expect(rows(tree).map((r) => r.entry.path)).toEqual(['/w/out', '/w/a.txt'])
    tree.expanded.push('/w/out')
    expect(rows(tree).map((r) => [r.entry.path, r.depth])).toEqual([
      ['/w/out', 0],
      ['/w/out/r.txt', 1],
      ['/w/a.txt', 0],
    ])
  })

  it('reloads only loaded folders, and forgets a removed one', () => {
    const tree = emptyTree()
    setListing(tree, { path: '/w', entries: [entry('/w/out', 'dir')] })
    setListing(tree, { path: '/w/out', entries: [] })
    tree.expanded.push('/w/out')
    expect(foldersToReload(tree, { kind: 'created', path: '/w/out/new.txt' })).toEqual(['/w/out'])
    expect(foldersToReload(tree, { kind: 'created', path: '/w/elsewhere/x/y.txt' })).toEqual([])
    // A folder whose contents changed stays open…
    expect(foldersToReload(tree, { kind: 'modified', path: '/w/out' })).toEqual(['/w'])
    expect(tree.expanded).toEqual(['/w/out'])
    expect(tree.folders['/w/out']).toEqual([])
    // …a removed one is forgotten.
    expect(foldersToReload(tree, { kind: 'removed', path: '/w/out' })).toEqual(['/w'])
    expect(tree.folders['/w/out']).toBeUndefined()
    expect(tree.expanded).toEqual([])
  })
})
