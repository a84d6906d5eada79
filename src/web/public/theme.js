// Applied before first paint so a dark-theme user never sees a white flash.
(function () {
  try {
    var t = localStorage.getItem('practice.theme');
    var dark = t === 'dark' || (t !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch (e) {}
})();
