// The search page: queries the Pagefind index the build wrote, in the browser, and lists
// titles with excerpts. Filters narrow by kind (manual, machine, part, comment) and machine.
// A large site's index comes in shards: the page names the first one's script in data-index
// and the others' folders in data-merge, and Pagefind merges them into one search.
(function () {
  "use strict";

  var form = document.querySelector(".search-form[data-index]");
  if (!form) return;
  var input = form.querySelector('input[name="q"]');
  var filters = form.querySelector(".search-filters");
  var selects = { type: form.querySelector('select[name="type"]'), machine: form.querySelector('select[name="machine"]') };
  var status = document.querySelector(".search-status");
  var list = document.querySelector(".search-results");
  var kinds = { manual: "Manual", machine: "Machine", part: "Part", comment: "Comments" };
  var params = new URLSearchParams(window.location.search);
  input.value = params.get("q") || "";
  ["type", "machine"].forEach(function (name) { if (params.get(name)) selects[name].dataset.wanted = params.get(name); });

  // Result URLs are paths from the site's root; the site may live under a sub-path.
  var siteRoot = new URL("../", window.location.href).pathname;
  var shards = (form.getAttribute("data-merge") || "").split(" ").filter(Boolean);
  var ready = import(new URL(form.getAttribute("data-index"), document.baseURI).href).then(function (pagefind) {
    return Promise.resolve(pagefind.options({ baseUrl: siteRoot })).then(function () {
      return Promise.all(shards.map(function (folder) {
        return pagefind.mergeIndex(new URL(folder, document.baseURI).href, { baseUrl: siteRoot });
      }));
    }).then(function () { return pagefind; });
  });

  function fillFilters(pagefind) {
    return pagefind.filters().then(function (available) {
      Object.keys(selects).forEach(function (name) {
        var values = Object.keys(available[name] || {}).sort();
        values.forEach(function (value) {
          var option = document.createElement("option");
          option.value = value;
          option.textContent = (name === "type" ? kinds[value] || value : value) + " (" + available[name][value] + ")";
          selects[name].appendChild(option);
        });
        if (selects[name].dataset.wanted) selects[name].value = selects[name].dataset.wanted;
      });
      filters.hidden = false;
    });
  }

  // Pagefind marks matches with <mark> in otherwise escaped text; only text and marks are kept.
  function excerpt(html) {
    var paragraph = document.createElement("p");
    var parsed = new DOMParser().parseFromString(html, "text/html");
    parsed.body.childNodes.forEach(function (node) {
      if (node.nodeName === "MARK") {
        var mark = document.createElement("mark");
        mark.textContent = node.textContent;
        paragraph.appendChild(mark);
      } else {
        paragraph.appendChild(document.createTextNode(node.textContent));
      }
    });
    return paragraph;
  }

  var latest = 0;
  function run() {
    var query = input.value.trim();
    var ticket = ++latest;
    var chosen = {};
    Object.keys(selects).forEach(function (name) { if (selects[name].value) chosen[name] = selects[name].value; });
    var url = new URL(window.location.href);
    url.search = "";
    if (query) url.searchParams.set("q", query);
    Object.keys(chosen).forEach(function (name) { url.searchParams.set(name, chosen[name]); });
    window.history.replaceState(null, "", url.href);
    if (!query) {
      list.replaceChildren();
      status.textContent = "";
      return;
    }
    status.textContent = "Searching…";
    ready.then(function (pagefind) {
      return pagefind.search(query, { filters: chosen });
    }).then(function (search) {
      if (ticket !== latest) return null;
      return Promise.all(search.results.slice(0, 20).map(function (result) { return result.data(); }))
        .then(function (pages) { return { total: search.results.length, pages: pages }; });
    }).then(function (found) {
      if (!found || ticket !== latest) return;
      list.replaceChildren();
      found.pages.forEach(function (page) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = page.url;
        link.textContent = (page.meta && page.meta.title) || page.url;
        item.appendChild(link);
        var types = (page.filters && page.filters.type) || [];
        if (types.length) {
          var kind = document.createElement("span");
          kind.className = "kind";
          kind.textContent = types.map(function (type) { return kinds[type] || type; }).join(", ");
          item.appendChild(kind);
        }
        item.appendChild(excerpt(page.excerpt || ""));
        list.appendChild(item);
      });
      status.textContent = found.total === 0 ? "No results for “" + query + "”."
        : found.total + (found.total === 1 ? " result" : " results") + " for “" + query + "”"
          + (found.total > found.pages.length ? ", the first " + found.pages.length + " shown." : ".");
    }).catch(function () {
      if (ticket === latest) status.textContent = "Search could not load its index.";
    });
  }

  var timer = null;
  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(run, 250);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    run();
  });
  Object.keys(selects).forEach(function (name) { selects[name].addEventListener("change", run); });
  ready.then(fillFilters).then(function () { if (input.value) run(); }).catch(function () {
    status.textContent = "Search could not load its index.";
  });
  input.focus();
})();
