/** Why lib/playground/dist is not the build of the current sources, or undefined when it is (fresh.mjs). */
export function playgroundStaleReason(root: string): string | undefined;
