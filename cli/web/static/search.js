// Search as you type: after a short pause, fetch the hit list for the current query from the
// server (rendered and escaped there) and swap it in; the address bar follows, so the URL of
// what one sees can be shared. Without JS the form still works as a plain GET.
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  if (!form) return;
  var input = document.getElementById("q");
  var lang = document.getElementById("lang");
  var hits = document.getElementById("hits");
  var timer = null, pending = null, shown = input.value + "|" + lang.value;

  function update() {
    var key = input.value + "|" + lang.value;
    if (key === shown) return;
    var params = new URLSearchParams({ q: input.value });
    if (lang.value) params.set("lang", lang.value);
    if (pending) pending.abort();
    pending = new AbortController();
    fetch("/search/hits?" + params, { signal: pending.signal })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        hits.innerHTML = html;
        shown = key;
        history.replaceState(null, "", input.value ? "/?" + params : "/");
        hits.dataset.query = input.value;
      })
      .catch(function () { /* aborted by a newer keystroke */ });
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(update, 200);
  }

  input.addEventListener("input", later);
  lang.addEventListener("change", update);
})();
