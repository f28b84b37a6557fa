// The test's side of the harness page (harness.js): typed calls of window.harness. Callbacks run
// in the page, so each names the harness itself (playwright sends their source, not closures).
import type { Page } from 'playwright-core';

interface Squiggle {
  readonly line: number;
  readonly column: number;
  readonly text: string;
}
interface HarnessSchema {
  readonly database: string;
  readonly tables: readonly { name: string; columns: readonly { name: string; type: string }[] }[];
  readonly functions: readonly string[];
}
interface Harness {
  readonly handle: {
    getText(): string;
    setText(text: string): void;
    setMarkers(markers: readonly { line: number; column: number; endColumn?: number; message: string }[]): void;
    focus(): void;
    setSchema(schema: HarnessSchema): void;
  };
  readonly schema: HarnessSchema;
  readonly runs: string[];
  squiggles(className: string): Squiggle[];
  pointAt(line: number, column: number): { x: number; y: number } | null;
  focusedId(): string | undefined;
}
export type HarnessWindow = { readonly harness: Harness };

export const editorText = (page: Page): Promise<string> =>
  page.evaluate(() => (globalThis as unknown as HarnessWindow).harness.handle.getText());

export const squiggles = (page: Page, className: string): Promise<Squiggle[]> =>
  page.evaluate((c) => (globalThis as unknown as HarnessWindow).harness.squiggles(c), className);

/** Where line:column is on screen, once the editor shows its text (it renders a new text at a later frame). */
export async function pointAt(page: Page, line: number, column: number): Promise<{ x: number; y: number }> {
  const point = await page.waitForFunction(([l, c]) => (globalThis as unknown as HarnessWindow).harness.pointAt(l, c), [
    line,
    column,
  ] as const);
  return (await point.jsonValue()) as { x: number; y: number };
}

export const focusedId = (page: Page): Promise<string | undefined> =>
  page.evaluate(() => (globalThis as unknown as HarnessWindow).harness.focusedId());

export const runs = (page: Page): Promise<string[]> =>
  page.evaluate(() => (globalThis as unknown as HarnessWindow).harness.runs);

/** Replaces the text and puts the focus in the editor with the cursor at the end. */
export async function resetEditor(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const { handle } = (globalThis as unknown as HarnessWindow).harness;
    handle.setText(t);
    handle.focus();
  }, text);
  await page.keyboard.press('Control+End');
}

/** Clicks at line:column (putting the cursor there) and presses Ctrl+Enter. */
export async function editorRun(page: Page, line: number, column: number): Promise<void> {
  const at = await pointAt(page, line, column);
  await page.mouse.click(at.x, at.y);
  await page.keyboard.press('Control+Enter');
}

/**
 * Brings the mouse to rest at `at` as a pointer does: from a little to the left, in a few moves.
 * Monaco shows a hover when the mouse rests over a word. One synthetic mousemove straight onto
 * the word (what `mouse.move(x, y)` sends) was now and then not acted on at all: no hover, not even
 * "Loading…", for as long as the mouse stayed (5 times in 50 at load ~28; a 2-pixel move then
 * showed it). Approached in steps, the hover showed 40 times in 40.
 */
export async function restMouseAt(page: Page, at: { x: number; y: number }): Promise<void> {
  await page.mouse.move(at.x - 20, at.y);
  await page.mouse.move(at.x, at.y, { steps: 4 });
}

/**
 * The texts of the hovers shown, once one is. Monaco keeps a hidden hover element (class
 * `hidden`) once it has shown one, and playwright's waitForSelector looks at the first element that
 * matches only, so the shown ones are polled for.
 */
export async function shownHovers(page: Page, timeout = 15_000): Promise<string[]> {
  const shown = (): Promise<string[]> =>
    page.$$eval('.monaco-hover:not(.hidden)', (hovers) => hovers.map((h) => h.textContent ?? ''));
  const deadline = Date.now() + timeout;
  for (;;) {
    const texts = await shown();
    if (texts.some((t) => t.trim() !== '') || Date.now() > deadline) return texts;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Hovers the squiggle under `text` and returns the hover's text, then moves the mouse away. */
export async function hoverText(page: Page, className: string, text: string): Promise<string> {
  const found = (await squiggles(page, className)).find((s) => s.text === text);
  if (!found) throw new Error(`no ${className} under '${text}'`);
  await restMouseAt(page, await pointAt(page, found.line, found.column + text.length / 2));
  const content = (await shownHovers(page)).join('\n');
  await page.mouse.move(0, 0);
  return content;
}
