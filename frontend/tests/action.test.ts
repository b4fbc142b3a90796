import { describe, expect, it } from 'vitest'
import { useAction } from '../src/lib/action'

describe('useAction', () => {
  it('is busy while the work runs, shows its failure, and clears it on the next', async () => {
    const { busy, error, act } = useAction()
    let release = () => {}
    const running = act(() => new Promise<void>((resolve) => (release = resolve)))
    expect(busy.value).toBe(true)
    release()
    await running
    expect(busy.value).toBe(false)
    await act(async () => {
      throw new Error('the key is gone')
    })
    expect([busy.value, error.value]).toEqual([false, 'the key is gone'])
    await act(async () => {})
    expect(error.value).toBe('')
  })
})
