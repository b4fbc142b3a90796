// Moving files between the person's computer and the sandbox. Uploads use
// XMLHttpRequest because fetch reports no upload progress; downloads and screenshots
// are fetched with the access token (an <a href> or <img src> cannot send it) and handed
// to the browser as object URLs.
import { authHeaders, authorizedFetch, failureOf, withFreshToken, ApiFailure } from '../api/http'
import { strings } from '../strings'

function sendOnce<T>(method: string, url: string, body: Blob, onProgress: (fraction: number) => void) {
  return new Promise<{ status: number; body: T | { error?: { code?: string; message?: string } } }>(
    (resolve, reject) => {
      const request = new XMLHttpRequest()
      request.open(method, url)
      for (const [name, value] of Object.entries(authHeaders())) request.setRequestHeader(name, value)
      request.setRequestHeader('Content-Type', 'application/octet-stream')
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total)
      }
      request.onload = () => {
        let parsed: unknown = null
        try {
          parsed = JSON.parse(request.responseText)
        } catch {
          parsed = null
        }
        resolve({ status: request.status, body: parsed as T })
      }
      request.onerror = () => reject(new ApiFailure(0, 'network', strings.errors.network))
      request.send(body)
    },
  )
}

/** Uploads `file` with progress (0…1); the backend's answer, or an ApiFailure. */
export async function upload<T>(
  method: 'POST' | 'PUT',
  url: string,
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<T> {
  const answer = await withFreshToken(() => sendOnce<T>(method, url, file, onProgress))
  if (answer.status >= 200 && answer.status < 300) return answer.body as T
  const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error
  throw new ApiFailure(answer.status, error?.code ?? 'error', error?.message ?? strings.errors.status(answer.status))
}

/** Fetches `url` with the access token as an object URL (revoke it when done), typed
 * `type` when given instead of as the server said. */
export async function objectUrl(url: string, type?: string): Promise<string> {
  const response = await authorizedFetch(url)
  if (!response.ok) throw await failureOf(response)
  const blob = await response.blob()
  return URL.createObjectURL(type ? blob.slice(0, blob.size, type) : blob)
}

/** Saves `url` under `name` on the person's computer. */
export async function download(url: string, name: string): Promise<void> {
  const href = await objectUrl(url)
  const link = document.createElement('a')
  link.href = href
  link.download = name
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(href), 60_000)
}
