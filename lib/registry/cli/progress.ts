// A one-line progress bar on stderr (only on a terminal; redirected output gets no control codes).

export function progressBar(stream: { write(text: string): unknown; readonly isTTY?: boolean }, label: string): { update(done: number, total: number): void; end(): void } {
  let drawn = false;
  return {
    update(done, total) {
      if (!stream.isTTY) return;
      const width = 30;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
