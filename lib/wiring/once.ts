// The composition roots build each dependency once per container (STYLE.md). A start-up that
// failed (a store not reachable yet, a bad file) is not kept: the next call tries again, so a
// warm function recovers without a restart.

/** `make` runs on the first call; its promise is shared until it rejects, then made again. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    if (!made) {
      const attempt = make();
      made = attempt;
      attempt.catch(() => {
        if (made === attempt) made = undefined;
      });
    }
    return made;
  };
}

/** Synchronous variant: a `make` that throws is made again on the next call. */
export function onceSync<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
