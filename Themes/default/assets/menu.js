// The site menu on narrow screens. The header keeps one row: the site's name, search and a
// Menu button that shows the navigation below it. Without JavaScript the button stays
// hidden and the navigation shows as it does on wide screens.
(function () {
  "use strict";

  var header = document.querySelector(".site-header");
  var button = header && header.querySelector(".menu-toggle");
  var nav = header && header.querySelector("nav");
  if (!button || !nav) return;

  function set(open) {
    header.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
  }

  header.classList.add("has-menu");
  button.hidden = false;
  button.addEventListener("click", function () {
    set(button.getAttribute("aria-expanded") !== "true");
  });
  header.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && header.classList.contains("menu-open")) {
      set(false);
      button.focus();
    }
  });
})();
