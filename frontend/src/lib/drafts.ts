// Unsent messages, one per chat, kept in localStorage so a reload or an expired sign-in
// loses nothing; signing out forgets them all.
const PREFIX = 'sandpiper.draft.'

export function draftStorageKey(chat: string): string {
  return `${PREFIX}${chat}`
}

export function forgetDrafts(): void {
  Object.keys(localStorage)
    .filter((key) => key.startsWith(PREFIX))
    .forEach((key) => localStorage.removeItem(key))
}
