// The search page: queries the Pagefind index the build wrote, in the browser, and lists
// titles with excerpts. Filters narrow by kind (manual, machine, part, comment) and machine.
// A large site's index comes in shards: the page names the first one's script in data-index
// and the others' folders in data-merge, and Pagefind merges them into one search.
(function () {
  "use strict";

  var form = document.querySelector(".search-form[data-index]");
  if (!form) return;
  var input = form.querySelector('input[name="q"]');
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
  var script = new URL(form.getAttribute("data-index"), document.baseURI).href;
  var module = import(script);
  // The first shard's options. With the tag the build named (its index's digest), Pagefind
  // asks for the entry file the page's head already fetched, instead of one stamped with the
  // time; the other shards' entries are not named in the page, so they keep the stamp.
  var tag = form.getAttribute("data-cache-tag");
  function firstOptions(options) {
    if (tag) options.metaCacheTag = tag;
    return options;
  }
  // The whole index: the first shard, with the others merged into it. Made when first needed.
  var whole = null;
  function wholeIndex() {
    if (!whole) {
      whole = module.then(function (pagefind) {
        return Promise.resolve(pagefind.options(firstOptions({ baseUrl: siteRoot }))).then(function () {
          return Promise.all(shards.map(function (folder) {
            return pagefind.mergeIndex(new URL(folder, document.baseURI).href, { baseUrl: siteRoot });
          }));
        }).then(function () { return pagefind; });
      });
    }
    return whole;
  }
  // A sharded catalog answers first from its first shard alone, then from every shard: before
  // any result, the whole index fetches each shard's metadata and a chunk of each shard for
  // each word (1.5-2.3 MB on a phone at 100,000 parts). The first shard's results are shown as
  // they are, and replaced when the whole index has answered.
  var firstShard = null;
  function firstShardIndex() {
    if (!firstShard) {
      firstShard = module.then(function (pagefind) {
        var instance = pagefind.createInstance(firstOptions({ basePath: script.replace(/[^\/]*$/, ""), baseUrl: siteRoot }));
        return instance;
      });
    }
    return firstShard;
  }
  // A page changed since its shard was indexed is indexed again in the recent shard, merged
  // with the others: its result there stands in for its shard's, which is left out, and taken
  // off the filters' counts (data-superseded: each such result with its filters). A page whose
  // indexed text did not change has one result in both: it is listed once.
  var superseded = {};
  try { superseded = JSON.parse(form.getAttribute("data-superseded") || "{}") || {}; } catch (error) { superseded = {}; }
  function lessCounts(counts, results) {
    if (!counts) return;
    results.forEach(function (filters) {
      Object.keys(filters || {}).forEach(function (name) {
        (filters[name] || []).forEach(function (value) {
          if (counts[name] && counts[name][value] > 0) counts[name][value] -= 1;
        });
      });
    });
  }
  function fresh(search) {
    if (!search) return search;
    var seen = {}, left = [];
    var results = search.results.filter(function (result) {
      if (Object.prototype.hasOwnProperty.call(superseded, result.id)) {
        left.push(superseded[result.id]);
        return false;
      }
      if (seen[result.id]) return false;
      seen[result.id] = true;
      return true;
    });
    lessCounts(search.filters, left);
    lessCounts(search.totalFilters, left);
    return { results: results, filters: search.filters, totalFilters: search.totalFilters };
  }

  // With nothing to search for yet, the whole index loads while the visitor types.
  if (!new URLSearchParams(window.location.search).get("q")) wholeIndex();

  // Each filter's options by value, with the index's count of pages under each.
  var options = { type: {}, machine: {} };
  // The whole index's last answer (its query, filters and Pagefind's answer, or `none` when it
  // found nothing), whose counts the filters show; null with no query.
  var lastAnswer = null;
  function fillFilters(pagefind) {
    return pagefind.filters().then(function (available) {
      lessCounts(available, Object.keys(superseded).map(function (result) { return superseded[result]; }));
      Object.keys(selects).forEach(function (name) {
        var values = Object.keys(available[name] || {}).sort();
        values.forEach(function (value) {
          var option = document.createElement("option");
          option.value = value;
          option.dataset.total = available[name][value];
          options[name][value] = option;
          selects[name].appendChild(option);
        });
        if (selects[name].dataset.wanted) selects[name].value = selects[name].dataset.wanted;
        selects[name].disabled = false;
      });
      // A search made before the filters were loaded has no counts for them: it is asked again.
      if (!lastAnswer || lastAnswer.none) return countFilters(lastAnswer);
      var asked = lastAnswer;
      return pagefind.search(asked.query, { filters: asked.chosen }).then(function (search) {
        if (lastAnswer === asked) countFilters(lastAnswer = { query: asked.query, chosen: asked.chosen, search: fresh(search) });
      });
    });
  }

  // A filter's counts are the query's: "Comments (24)" offered beside one result would give
  // none. Under a chosen value, its own filter counts the query without it (Pagefind's
  // totalFilters), so that another value can still be chosen. A value with no result is
  // hidden (and disabled, for browsers that show hidden options), unless it is the chosen one.
  function countFilters(answer) {
    var search = answer && (answer.none ? { filters: {}, totalFilters: {} } : answer.search);
    Object.keys(selects).forEach(function (name) {
      var counts = search ? ((selects[name].value ? search.totalFilters : search.filters) || {})[name] || {} : null;
      Object.keys(options[name]).forEach(function (value) {
        var option = options[name][value];
        var count = counts ? counts[value] || 0 : Number(option.dataset.total);
        option.textContent = (name === "type" ? kinds[value] || value : value) + " (" + count + ")";
        var none = count === 0 && selects[name].value !== value;
        option.hidden = none;
        option.disabled = none;
      });
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

  // Results come in pages of twenty; "Show more" adds the next page below them. A phone's
  // browser fetches six files at once, and on a slow network each costs a round trip: the
  // first five results are listed as soon as theirs are in, and the page fills in after.
  var pageSize = 20;
  var firstWave = 5;
  var more = document.createElement("button");
  more.type = "button";
  more.className = "search-more";
  more.hidden = true;
  list.after(more);

  function resultItem(page) {
    var item = document.createElement("li");
    var link = document.createElement("a");
    link.href = page.url;
    link.textContent = (page.meta && page.meta.title) || page.url;
    item.appendChild(link);
    var types = (page.filters && page.filters.type) || [];
    var machines = (page.filters && page.filters.machine) || [];
    if (types.length) {
      var kind = document.createElement("span");
      kind.className = "kind";
      var label = types.map(function (type) { return kinds[type] || type; }).join(", ");
      // A part's or comment's page names the machine it belongs to; a machine's own page does not need to.
      if (machines.length && types.indexOf("machine") < 0) label += " · " + machines[0];
      kind.textContent = label;
      item.appendChild(kind);
    }
    item.appendChild(excerpt(page.excerpt || ""));
    return item;
  }

  var latest = 0;
  var current = null;
  function settled(ticket) { if (ticket === latest) list.removeAttribute("aria-busy"); }

  // The first answer, before Pagefind has loaded (four round trips on a slow network, where
  // it takes one): the pages Teardown's own index lists for the query's words, or "No
  // results" with the likeliest word meant, when no page holds a word (first-answer.mustache).
  // Resolves to true when that was the whole answer, and Pagefind is not asked.
  var firstAnswer = window.teardownFirstAnswer;
  var answered = 0, named = 0, failed = 0, missed = 0;
  var suggestion = document.createElement("p");
  suggestion.className = "search-suggestion";
  suggestion.hidden = true;
  status.after(suggestion);
  function suggest(query) {
    suggestion.hidden = !query;
    if (!query) return;
    var link = document.createElement("a");
    link.href = "?q=" + encodeURIComponent(query);
    link.textContent = query;
    link.addEventListener("click", function (event) {
      event.preventDefault();
      input.value = query;
      run("submit");
    });
    suggestion.replaceChildren("Did you mean ", link, "?");
  }
  function quickAnswer(query, ticket) {
    if (!firstAnswer) return Promise.resolve(false);
    var asked = firstAnswer.ready.then(function (early) {
      return early && early.query === query ? early : firstAnswer.answer(query);
    });
    return asked.then(function (found) {
      if (!found || ticket !== latest || answered === ticket) return false;
      if (found.miss) {
        answered = missed = ticket;
        settled(ticket);
        list.replaceChildren();
        more.hidden = true;
        status.textContent = "No results for “" + query + "”.";
        suggest(found.suggestion);
        if (found.later) found.later.then(function (fixed) { if (fixed && ticket === latest) suggest(fixed); });
        lastAnswer = { query: query, chosen: {}, none: true };
        countFilters(lastAnswer);
        return true;
      }
      if (!found.pages.length) return false;
      list.replaceChildren();
      more.hidden = true;
      found.pages.slice(0, pageSize).forEach(function (page) {
        var item = resultItem({ url: "../" + page[0], meta: { title: page[1] }, excerpt: "",
          filters: { type: page[2], machine: page[3] ? [page[3]] : [] } });
        item.classList.add("early");
        list.appendChild(item);
      });
      named = ticket;
      // Said unlike the full answer ("12 results for"), which may count more: Pagefind finds stems too.
      var count = found.count === null ? "Pages" : found.count + (found.count === 1 ? " page holds" : " pages hold");
      status.textContent = count + " “" + query + "”; " + (failed === ticket
        ? "the full search could not be loaded." : "finding excerpts and more…");
      return false;
    }, function () { return false; });
  }

  // Pagefind answers a word that no page holds with the pages holding its first letters:
  // "zzzzqqq" finds every "z". A search whose best result holds no word near the query's
  // words is reported as finding nothing, rather than as three results that do not match.
  // Words as the build and the first answer tell them apart (first-answer.mustache).
  function words(text) {
    return text.toLowerCase().normalize("NFD").replace(/\p{Mn}/gu, "").split(/[^\p{L}\p{N}\p{Mc}\p{Me}]+/u)
      .filter(Boolean).map(function (word) { return word.normalize("NFC"); });
  }
  function near(word, term) {
    if (word.indexOf(term) === 0) return true; // a word being typed: "gea" finds "gear"
    var shared = 0;
    while (shared < word.length && shared < term.length && word[shared] === term[shared]) shared++;
    return shared >= 0.4 * Math.max(word.length, term.length); // stems: "gears" finds "gear"
  }
  function matches(page, terms) {
    var text = ((page.meta && page.meta.title) || "") + " " + (page.content || "");
    return words(text).some(function (word) {
      return terms.some(function (term) { return near(word, term); });
    });
  }

  // Loads and adds results up to the end of the next page; focus moves to
  // the first new one when asked.
  function showMore(search, ticket, focus) {
    var shown = list.children.length;
    var next = search.results.slice(shown, (Math.floor(shown / pageSize) + 1) * pageSize);
    more.disabled = true;
    return Promise.all(next.map(function (result) { return result.data(); }))
      .then(function (pages) {
        if (ticket !== latest) return;
        var items = pages.map(resultItem);
        items.forEach(function (item) { list.appendChild(item); });
        if (focus && items.length) items[0].querySelector("a").focus();
        var left = search.results.length - list.children.length;
        more.hidden = left <= 0;
        more.disabled = false;
        // "Show 2 more of 2" said the same number twice: the rest is given only when there is more than a page of it.
        more.textContent = left > pageSize ? "Show " + pageSize + " more of " + left : "Show " + left + " more";
      });
  }

  // The query is kept in the address, so that back and forward go through the searches made.
  // A search submitted (Enter), filtered or come back to is an entry of its own; one being
  // typed replaces itself until then, so that "f", "fa" and "fan" are not three entries.
  var kept = true;
  function run(how) {
    var query = input.value.trim();
    var ticket = ++latest;
    var chosen = {};
    Object.keys(selects).forEach(function (name) { if (selects[name].value) chosen[name] = selects[name].value; });
    var url = new URL(window.location.href);
    url.search = "";
    if (query) url.searchParams.set("q", query);
    Object.keys(chosen).forEach(function (name) { url.searchParams.set(name, chosen[name]); });
    if (how !== "history" && url.href !== window.location.href) {
      if (kept) window.history.pushState(null, "", url.href);
      else window.history.replaceState(null, "", url.href);
    }
    kept = how !== "typing";
    suggest(null);
    if (!query) {
      list.removeAttribute("aria-busy");
      list.replaceChildren();
      more.hidden = true;
      status.textContent = "";
      lastAnswer = null;
      countFilters(null);
      return;
    }
    status.textContent = "Searching…";
    // The list says it is filling in until the whole first page is listed.
    list.setAttribute("aria-busy", "true");
    var quick = Object.keys(chosen).length ? Promise.resolve(false) : quickAnswer(query, ticket);
    var partial = null;
    // The first shard goes first only while the whole index is not loaded, and not under a
    // filter, whose counts are the whole index's. It is asked at once, as the first answer is
    // (it has the query's chunks from the page's first files); the other shards only once the
    // first answer has not found that no page holds a word.
    var early = shards.length && !whole && !Object.keys(chosen).length ? firstShardIndex().then(function (instance) {
      return answer(instance, query, chosen, ticket, true);
    }).catch(function () { return null; }) : Promise.resolve(null);
    return Promise.all([early, quick]).then(function (got) {
      partial = got[0];
      return got[1] ? null : wholeIndex();
    }).then(function (pagefind) {
      return pagefind && answer(pagefind, query, chosen, ticket, false);
    }).catch(function () {
      if (ticket !== latest) return;
      failed = ticket;
      list.removeAttribute("aria-busy");
      // What the first shard or the first answer found stays listed, said to be part of the answer.
      status.textContent = partial ? partial + " so far for “" + query + "”; the rest of the catalog could not be searched."
        : named === ticket ? status.textContent.replace(/finding excerpts and more…$/, "the full search could not be loaded.")
        : "Search could not load its index.";
    });
  }

  // Searches one index and lists its first page of results. A partial answer (the first
  // shard's) is shown only when it found something, and says that more may come; its count
  // ("12 results") is returned when it was shown.
  function answer(pagefind, query, chosen, ticket, partial) {
    return pagefind.search(query, { filters: chosen }).then(function (found) {
      var search = fresh(found);
      // Nothing to add to a "No results" the first answer gave.
      if (!search || ticket !== latest || missed === ticket) return;
      var first = search.results.slice(0, firstWave);
      return Promise.all(first.map(function (result) { return result.data(); })).then(function (pages) {
        if (ticket !== latest) return;
        var found = pages.length && matches(pages[0], words(query)) ? search.results : [];
        if (partial && !found.length) return;
        if (!partial) {
          lastAnswer = { query: query, chosen: chosen, search: search, none: !found.length };
          countFilters(lastAnswer);
        }
        answered = ticket;
        if (!found.length) settled(ticket);
        current = partial ? null : { results: found };
        list.replaceChildren();
        more.hidden = true;
        var counted = found.length + (found.length === 1 ? " result" : " results");
        status.textContent = found.length === 0 ? "No results for “" + query + "”."
          : partial ? counted + " so far for “" + query + "”; searching the rest of the catalog…"
          : counted + " for “" + query + "”.";
        if (!found.length) return;
        pages.forEach(function (page) { list.appendChild(resultItem(page)); });
        if (!partial) return showMore(current, ticket, false).then(function () { settled(ticket); });
        return counted;
      });
    });
  }

  more.addEventListener("click", function () {
    if (current) showMore(current, latest, true);
  });

  var timer = null;
  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { run("typing"); }, 250);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    window.clearTimeout(timer);
    run("submit");
  });
  Object.keys(selects).forEach(function (name) {
    selects[name].addEventListener("change", function () { run("filter"); });
  });
  window.addEventListener("popstate", function () {
    var params = new URLSearchParams(window.location.search);
    input.value = params.get("q") || "";
    Object.keys(selects).forEach(function (name) {
      var value = params.get(name) || "";
      selects[name].dataset.wanted = value;
      selects[name].value = value;
    });
    window.clearTimeout(timer);
    run("history");
  });

  // The keyboard: Down from the box goes to the results, Up and Down move through them and
  // Up from the first goes back to the box; Escape goes back to the box, or empties it.
  function links() { return Array.prototype.slice.call(list.querySelectorAll("li > a")); }
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" && links().length) {
      event.preventDefault();
      links()[0].focus();
    } else if (event.key === "Escape" && input.value) {
      event.preventDefault();
      input.value = "";
      window.clearTimeout(timer);
      run("submit");
    }
  });
  list.addEventListener("keydown", function (event) {
    var all = links(), at = all.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === "ArrowDown" && at + 1 < all.length) {
      event.preventDefault();
      all[at + 1].focus();
    } else if (event.key === "ArrowUp" || event.key === "Escape") {
      event.preventDefault();
      (event.key === "ArrowUp" && at > 0 ? all[at - 1] : input).focus();
    }
  });
  // The filters' lists load every shard's filter data: a phone on a slow network waited for
  // them before its first results (470 KB of 2 MB at 100,000 parts). They come after the
  // results, unless the address asks for a filter, which the search needs first.
  var filled = null;
  function filtersOnce() {
    if (!filled) filled = wholeIndex().then(fillFilters);
    return filled;
  }
  var wanted = Object.keys(selects).some(function (name) { return selects[name].dataset.wanted; });
  var first = wanted ? filtersOnce().then(function () { return input.value ? run("history") : null; })
    : Promise.resolve(input.value ? run("history") : null);
  first.then(filtersOnce).catch(function () {
    if (!list.childElementCount) status.textContent = "Search could not load its index.";
  });
  input.focus();
})();
