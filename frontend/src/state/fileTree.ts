// The file browser's tree: folders loaded when opened, flattened into rows for display,
// and reloaded when the sandbox reports a change inside them.
import type { FileChange, FileEntry, Listing } from '../api/types'
import { parentOf } from '../lib/format'

export interface Row {
  entry: FileEntry
  depth: number
  open: boolean
}

export interface Tree {
  root: string
  folders: Record<string, FileEntry[]>
  expanded: string[]
}

export function emptyTree(): Tree {
  return { root: '', folders: {}, expanded: [] }
}

export function setListing(tree: Tree, listing: Listing): void {
  if (!tree.root) tree.root = listing.path
  tree.folders[listing.path] = listing.entries
}

/** The rows to show: the root's entries and, under each open folder, its own. */
export function rows(tree: Tree): Row[] {
  const out: Row[] = []
  const walk = (path: string, depth: number) => {
    for (const entry of tree.folders[path] ?? []) {
      const open = entry.kind === 'dir' && tree.expanded.includes(entry.path)
      out.push({ entry, depth, open })
      if (open) walk(entry.path, depth + 1)
    }
  }
  walk(tree.root, 0)
  return out
}

/** The loaded folders a change at `path` touches (its parent), to reload. */
export function foldersToReload(tree: Tree, change: FileChange): string[] {
  const { path } = change
  const parent = parentOf(path)
  const stale = [parent].filter((folder) => folder in tree.folders)
  // A removed folder's own listing is gone with it; a modified one (a file inside was
  // added or removed) stays open and shows the change through its own events.
  if (change.kind === 'removed' && path in tree.folders) {
    delete tree.folders[path]
    tree.expanded = tree.expanded.filter((p) => p !== path && !p.startsWith(path + '/'))
  }
  return stale
}
