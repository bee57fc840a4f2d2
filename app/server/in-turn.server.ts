/**
 * Requests that share a key take turns in this process: `running` at once, `waiting` more wait in line, and the
 * rest are turned away at once, before they read a body or touch the database. A cheap shield for work one holder
 * has no reason to run many of side by side: step 4's page sends its files one after another, yet 16 loops
 * posting from one intake link took the app's and the database's CPU and made every sign-in slow.
 * Per process, in memory: it sheds load; correctness stays with the database (form keys, unique indexes).
 */
type Line = { running: number; queue: (() => void)[] };
const lines = new Map<string, Line>();

/** Runs `work` when its turn comes; null (nothing run) when the line of `key` is full. */
export async function inTurn<T>(
  key: string,
  limits: { running: number; waiting: number },
  work: () => Promise<T>,
): Promise<{ value: T } | null> {
  let line = lines.get(key);
  if (!line) lines.set(key, (line = { running: 0, queue: [] }));
  if (line.running >= limits.running) {
    if (line.queue.length >= limits.waiting) return null;
    await new Promise<void>((resolve) => line!.queue.push(resolve)); // its turn: `running` passed on, not freed
  } else line.running++;
  try {
    return { value: await work() };
  } finally {
    const next = line.queue.shift();
    if (next) next();
    else if (--line.running === 0) lines.delete(key);
  }
}

type Burst = { count: number; until: number };
const bursts = new Map<string, Burst>();
/** Keys counted at once at most: past it the ended windows go, then the oldest (a flood of made-up keys stays bounded). */
const MAX_BURST_KEYS = 10_000;

/**
 * False once `key` has made more than `max` requests in the fixed window of `windowMs` that its first one opened:
 * the same kind of cheap shield, for requests that each finish quickly but come faster than any person sends them.
 */
export function withinBurst(key: string, limits: { max: number; windowMs: number }, now = Date.now()): boolean {
  let burst = bursts.get(key);
  if (!burst || burst.until <= now) {
    bursts.delete(key);
    if (bursts.size >= MAX_BURST_KEYS) {
      for (const [k, b] of bursts) if (b.until <= now) bursts.delete(k);
      if (bursts.size >= MAX_BURST_KEYS) bursts.delete(bursts.keys().next().value!);
    }
    bursts.set(key, (burst = { count: 0, until: now + limits.windowMs }));
  }
  return ++burst.count <= limits.max;
}
