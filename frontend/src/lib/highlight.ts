// Code highlighting with highlight.js' core and the languages agents mostly write, so the
// bundle does not carry all 190 of them.
import hljs from 'highlight.js/lib/core'
import bash from 'highlight.js/lib/languages/bash'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import go from 'highlight.js/lib/languages/go'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import markdown from 'highlight.js/lib/languages/markdown'
import python from 'highlight.js/lib/languages/python'
import rust from 'highlight.js/lib/languages/rust'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'

const languages = { bash, css, diff, go, javascript, json, markdown, python, rust, sql, typescript, xml, yaml }
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language)

const byExtension: Record<string, string> = {
  sh: 'bash', bash: 'bash', css: 'css', diff: 'diff', patch: 'diff', go: 'go',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', json: 'json', md: 'markdown',
  py: 'python', rs: 'rust', sql: 'sql', ts: 'typescript', tsx: 'typescript',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', vue: 'xml', yml: 'yaml', yaml: 'yaml',
}

export function languageOf(path: string): string | undefined {
  const extension = path.split('.').pop()?.toLowerCase() ?? ''
  return byExtension[extension]
}

/** HTML for `code` highlighted as `language` (escaped plain text when unknown). */
export function highlight(code: string, language?: string): string {
  if (language && hljs.getLanguage(language)) {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value
  }
  return escapeHtml(code)
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
