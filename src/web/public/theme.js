// Applied before first paint so a dark-theme user never sees a white flash.
try {
  const theme = localStorage.getItem('practice.theme');
  const dark =
    theme === 'dark' || (theme !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
} catch {
  // Storage can be blocked; the light theme is a fine fallback.
}
