import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue'

/** A clock for relative times, ticking while the component lives. */
export function useNow(intervalMs = 15_000): Ref<number> {
  const now = ref(Date.now())
  let timer: ReturnType<typeof setInterval> | null = null
  onMounted(() => {
    timer = setInterval(() => (now.value = Date.now()), intervalMs)
  })
  onBeforeUnmount(() => {
    if (timer !== null) clearInterval(timer)
  })
  return now
}
