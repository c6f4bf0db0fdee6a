// The manual's keyboard and navigation: left and right arrows turn pages, and a long manual's
// navigation tree is loaded once from its shared nav.json instead of being repeated on every page.
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (document.querySelector("dialog[open]")) return;
    var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
    if (!rel) return;
    var link = document.querySelector('.prev-next a[rel="' + rel + '"]');
    if (link) {
      event.preventDefault();
      window.location.href = link.href;
    }
  });

  // A button of the page's own, which does `action` when pressed.
  function button(className, text, attributes, action) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = className;
    made.textContent = text;
    Object.keys(attributes).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    made.addEventListener("click", action);
    return made;
  }

  // On narrow screens the navigation folds behind a "Pages" button, so a page starts with
  // its own title rather than the whole tree; without JavaScript the tree shows in full.
  var manualNav = document.querySelector(".manual-nav");
  if (manualNav) {
    var toggle = button("pages-toggle", "Pages", { "aria-expanded": "false" }, function () {
      var open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      manualNav.classList.toggle("open", open);
    });
    var heading = manualNav.querySelector(".manual-title");
    if (heading) heading.after(toggle); else manualNav.prepend(toggle);
    manualNav.classList.add("folds");
  }

  // Each code block gets a Copy button: the manual's commands are meant to be pasted into a
  // terminal. The clipboard API needs a secure page; elsewhere the code is selected and
  // copied the older way.
  document.querySelectorAll(".manual-page pre").forEach(function (block) {
    var code = block.querySelector("code") || block;
    var copy = button("copy-code", "Copy", { "aria-label": "Copy the code" }, function () {
      var text = code.textContent.replace(/\n$/, "");
      var done = function () {
        copy.textContent = "Copied";
        window.setTimeout(function () { copy.textContent = "Copy"; }, 2000);
      };
      var fallback = function () {
        var range = document.createRange();
        range.selectNodeContents(code);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        if (document.execCommand("copy")) done(); else copy.textContent = "Press Ctrl+C";
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
      else fallback();
    });
    block.classList.add("has-copy");
    block.appendChild(copy);
  });

  var nav = document.querySelector(".manual-nav[data-navigation]");
  if (!nav || !window.fetch) return;
  var source = new URL(nav.getAttribute("data-navigation"), document.baseURI);

  function build(entries) {
    var root = document.createElement("ol");
    root.className = "nav-tree";
    var lists = [root];
    var last = null;
    var current = null;
    entries.forEach(function (entry) {
      var depth = Math.min(entry.depth, lists.length - 1);
      if (entry.depth >= lists.length && last) {
        var nested = document.createElement("ol");
        last.appendChild(nested);
        lists.push(nested);
        depth = lists.length - 1;
      }
      lists.length = depth + 1;
      var item = document.createElement("li");
      item.className = entry.kind;
      if (entry.url) {
        var link = document.createElement("a");
        link.href = new URL(entry.url, source).href;
        link.textContent = entry.title;
        if (!current && link.pathname === window.location.pathname) {
          link.setAttribute("aria-current", "page");
          current = link;
        }
        item.appendChild(link);
      } else {
        var text = document.createElement("span");
        text.textContent = entry.title;
        item.appendChild(text);
      }
      lists[depth].appendChild(item);
      last = item;
    });
    return { tree: root, current: current };
  }

  fetch(source.href).then(function (response) {
    if (!response.ok) throw new Error(response.status);
    return response.json();
  }).then(function (data) {
    if (!data || data.version !== 1 || !Array.isArray(data.entries)) return;
    var built = build(data.entries);
    var anchor = nav.querySelector(".pages-toggle") || nav.querySelector(".manual-title");
    if (anchor) anchor.after(built.tree); else nav.prepend(built.tree);
    if (built.current) built.current.scrollIntoView({ block: "nearest" });
  }).catch(function () {
    // The manual's title still links the contents page, which has the whole tree.
  });
})();
