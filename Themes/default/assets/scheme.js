// The header's script, on every page. Light or dark colours: the visitor's operating system
// decides, unless they chose on the site with the header's button, which is remembered.
// Loaded in the page's head, before the page is drawn, so a chosen scheme shows from the
// first frame. Then the Menu on narrow screens.
(function () {
  "use strict";
  var key = "teardown.scheme";
  var root = document.documentElement;
  function stored() {
    try { return window.localStorage.getItem(key); } catch (error) { return null; }
  }
  function apply(scheme) {
    if (scheme === "light" || scheme === "dark") root.dataset.scheme = scheme;
    else delete root.dataset.scheme;
  }
  apply(stored());

  var labels = { auto: "Colours: automatic", light: "Colours: light", dark: "Colours: dark" };
  var glyphs = { auto: "◐", light: "☀", dark: "☾" };
  document.addEventListener("DOMContentLoaded", function () {
    var header = document.querySelector(".site-header");
    if (!header) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "scheme-toggle";
    function show() {
      var scheme = stored() || "auto";
      if (!labels[scheme]) scheme = "auto";
      button.textContent = glyphs[scheme];
      button.setAttribute("aria-label", labels[scheme]);
      button.title = labels[scheme] + " (change)";
    }
    // Automatic, then the scheme the system is not showing, then the other one.
    button.addEventListener("click", function () {
      var systemDark = window.matchMedia("(prefers-color-scheme: dark)").matches;
      var order = systemDark ? ["auto", "light", "dark"] : ["auto", "dark", "light"];
      var next = order[(order.indexOf(stored() || "auto") + 1) % order.length];
      try {
        if (next === "auto") window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, next);
      } catch (error) { /* private browsing: the choice lasts for this page only */ }
      apply(next === "auto" ? null : next);
      show();
    });
    show();
    // At the end of the navigation: beside Help on a wide screen, in the Menu panel on a phone,
    // where the header's one row has no room to spare.
    (header.querySelector("nav") || header).appendChild(button);
    menu(header);
  });

  // The site menu on narrow screens. The header keeps one row: the site's name, search and a
  // Menu button that shows the navigation below it. Without JavaScript the button stays
  // hidden and the navigation shows as it does on wide screens. (Here, not in a script of its
  // own: on a phone each file is a request, and a page's first six share its connections.)
  function menu(header) {
    var toggle = header.querySelector(".menu-toggle");
    var nav = header.querySelector("nav");
    if (!toggle || !nav) return;
    function set(open) {
      header.classList.toggle("menu-open", open);
      toggle.setAttribute("aria-expanded", String(open));
    }
    header.classList.add("has-menu");
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      set(toggle.getAttribute("aria-expanded") !== "true");
    });
    header.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && header.classList.contains("menu-open")) {
        set(false);
        toggle.focus();
      }
    });
  }
})();
