// The metric/imperial switch above a part's specifications. The choice is kept in
// localStorage, so it holds on every page of the site; without a choice, or without
// JavaScript, every conversion is shown.
(function () {
  "use strict";

  var key = "teardown.units";
  var choices = ["both", "metric", "imperial"];

  function stored() {
    try {
      var value = window.localStorage.getItem(key);
      return choices.indexOf(value) >= 0 ? value : "both";
    } catch (error) {
      return "both"; // storage can be switched off; the page still works
    }
  }

  function apply(choice) {
    if (choice === "both") document.documentElement.removeAttribute("data-units");
    else document.documentElement.setAttribute("data-units", choice);
    document.querySelectorAll(".unit-switch button").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-units") === choice));
    });
  }

  apply(stored());
  document.querySelectorAll(".unit-switch").forEach(function (group) {
    group.hidden = false;
    group.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-units]");
      if (!button) return;
      var choice = button.getAttribute("data-units");
      try {
        window.localStorage.setItem(key, choice);
      } catch (error) {
        // not remembered, but still applied to this page
      }
      apply(choice);
    });
  });

  // Another tab changed the choice: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key === key) apply(stored());
  });
})();
