import { describe, expect, it } from 'vitest'
import { webLink } from '../src/lib/format'

describe('webLink', () => {
  it('makes only web addresses clickable', () => {
    expect(webLink('https://example.org/a?b=c')).toBe('https://example.org/a?b=c')
    expect(webLink('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/')
    expect(webLink('javascript:alert(1)')).toBeUndefined()
    expect(webLink('data:text/html,<script>')).toBeUndefined()
    expect(webLink('not a url')).toBeUndefined()
    expect(webLink(undefined)).toBeUndefined()
  })
})
