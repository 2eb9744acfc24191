// Light and dark: the `.dark` class on <html> (set before first paint by index.html), saved in localStorage.theme.
// Until the user picks one, the page follows the system's setting, also when it changes while the page is open.

export type Theme = 'light' | 'dark';

const listeners = new Set<() => void>();

function savedChoice(): string | null {
  try {
    return localStorage.getItem('theme');
  } catch {
    return null;
  }
}

function apply(next: Theme): void {
  document.documentElement.classList.toggle('dark', next === 'dark');
  for (const listener of listeners) listener();
}

matchMedia('(prefers-color-scheme: dark)').addEventListener('change', (event) => {
  if (!savedChoice()) apply(event.matches ? 'dark' : 'light');
});

export const theme = {
  current: (): Theme => (document.documentElement.classList.contains('dark') ? 'dark' : 'light'),
  set(next: Theme): void {
    try {
      localStorage.setItem('theme', next);
    } catch {
      // storage may be off: the choice lasts until reload
    }
    apply(next);
  },
  toggle(): void {
    theme.set(theme.current() === 'dark' ? 'light' : 'dark');
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** A CSS variable of the current theme as rgb(), for the chart (it cannot read oklch). */
export function cssColor(variable: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(variable).trim();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return value;
  context.fillStyle = value;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
  return `rgba(${r}, ${g}, ${b}, ${((a ?? 255) / 255).toFixed(3)})`;
}
