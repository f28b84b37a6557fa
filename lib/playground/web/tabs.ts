// The Results / Chart / Explain tabs as the WAI-ARIA tabs pattern: one tab in the tab order (the
// selected one), arrow keys, Home and End move between tabs, and selecting shows its panel.

export type TabName = 'results' | 'chart' | 'explain';
const TABS: readonly TabName[] = ['results', 'chart', 'explain'];

let onSelect: (tab: TabName) => void = () => undefined;

const tabOf = (name: TabName): HTMLElement | null => document.getElementById(`tab-${name}`);
const panelOf = (name: TabName): HTMLElement | null => document.getElementById(`panel-${name}`);

export function selectTab(name: TabName, focus = false): void {
  for (const other of TABS) {
    const selected = other === name;
    const tab = tabOf(other);
    tab?.setAttribute('aria-selected', String(selected));
    if (tab) tab.tabIndex = selected ? 0 : -1;
    const panel = panelOf(other);
    if (panel) panel.hidden = !selected;
  }
  if (focus) tabOf(name)?.focus();
  onSelect(name);
}

export function wireTabs(selected: (tab: TabName) => void): void {
  onSelect = selected;
  TABS.forEach((name, i) => {
    const tab = tabOf(name);
    tab?.addEventListener('click', () => selectTab(name));
    tab?.addEventListener('keydown', (e) => {
      const next =
        e.key === 'ArrowRight'
          ? TABS[(i + 1) % TABS.length]
          : e.key === 'ArrowLeft'
            ? TABS[(i + TABS.length - 1) % TABS.length]
            : e.key === 'Home'
              ? TABS[0]
              : e.key === 'End'
                ? TABS[TABS.length - 1]
                : undefined;
      if (!next) return;
      e.preventDefault();
      selectTab(next, true);
    });
  });
}
