// Types of build.mjs's export, for tests that build a harness page the same way as the page.
export interface PlaygroundManifest {
  readonly builtAt: string;
  /** Output file (relative to outdir) -> size in bytes. */
  readonly files: Readonly<Record<string, number>>;
  /** Source file (relative to the repository) -> modification time in ms. */
  readonly inputs: Readonly<Record<string, number>>;
}
export function buildPlayground(options?: { outdir?: string; pageEntry?: string }): Promise<PlaygroundManifest>;
