// The "Post a comment" and "Add a photo" forms. Without JavaScript they post to the intake
// service and land on its thank-you page. With it they post in place: a counter shows the
// characters left, a bar shows the upload's progress, and the answer shows beside the button.
// Nothing typed is cleared unless the submission was received.
(function () {
  "use strict";

  // Characters as the intake service counts them: user-perceived characters, trimmed.
  var segmenter = window.Intl && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  function length(text) {
    text = text.trim();
    if (segmenter) {
      var count = 0;
      for (var piece of segmenter.segment(text)) count += 1;
      return count;
    }
    return Array.from(text).length;
  }

  function counter(field) {
    var max = parseInt(field.getAttribute("data-max"), 10);
    var output = document.getElementById(field.getAttribute("aria-describedby"));
    if (!max || !output) return function () { return true; };
    output.hidden = false;
    function update() {
      var left = max - length(field.value);
      output.textContent = left >= 0 ? left + (left === 1 ? " character left" : " characters left")
                                     : -left + (left === -1 ? " character too many" : " characters too many");
      output.classList.toggle("over", left < 0);
      return left >= 0;
    }
    field.addEventListener("input", update);
    update();
    return update;
  }

  function enhance(form) {
    var status = form.querySelector(".intake-status");
    var bar = form.querySelector("progress");
    var button = form.querySelector("button[type=submit]");
    var body = form.querySelector("textarea[data-max]");
    var fits = body ? counter(body) : function () { return true; };

    function say(text, kind) {
      status.textContent = text;
      status.className = "intake-status" + (kind ? " " + kind : "");
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!fits()) {
        say("The comment is too long: shorten it to send it.", "error");
        body.focus();
        return;
      }
      var request = new XMLHttpRequest();
      request.open("POST", form.action);
      request.setRequestHeader("Accept", "application/json");
      request.timeout = 120000;
      if (bar) {
        bar.value = 0;
        bar.hidden = false;
        request.upload.addEventListener("progress", function (progress) {
          if (!progress.lengthComputable) return;
          var percent = Math.round(progress.loaded / progress.total * 100);
          bar.value = percent;
          bar.textContent = percent + "%";
        });
      }
      function finish(text, kind) {
        button.disabled = false;
        if (bar) bar.hidden = true;
        say(text, kind);
      }
      request.addEventListener("load", function () {
        var answer = {};
        try { answer = JSON.parse(request.responseText); } catch (error) { answer = {}; }
        if (request.status === 201) {
          form.reset();
          if (body) fits();
          finish(answer.status === "held"
            ? "Thank you! A moderator will read it before it appears."
            : "Thank you! It appears after the site's next update.", "done");
        } else if (request.status === 429) {
          finish("Too many submissions for now: " + (answer.error || "please wait a minute") + ".", "error");
        } else {
          finish("Not sent: " + (answer.error || "the service answered " + request.status) + ".", "error");
        }
      });
      function unreachable() {
        finish("Not sent: the service could not be reached. Your text is still here; try again later.", "error");
      }
      request.addEventListener("error", unreachable);
      request.addEventListener("timeout", unreachable);
      button.disabled = true;
      say(bar ? "Uploading…" : "Sending…", "");
      request.send(new FormData(form));
    });
  }

  var forms = document.querySelectorAll("form[data-intake]");
  for (var index = 0; index < forms.length; index += 1) enhance(forms[index]);
})();
