import Foundation

/// Tells open pages to reload after a build, or shows them the build's errors: one
/// server-sent event stream per open page.
actor LiveReload {
    private var clients: [UUID: AsyncStream<String>.Continuation] = [:]
    private var failure: String?
    /// The last good build's warnings, shown on every page opened since (empty: none).
    private var warnings = ""

    func subscribe() -> (UUID, AsyncStream<String>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        clients[id] = continuation
        // A page opened while the site is broken shows the errors at once.
        if let failure { continuation.yield(Self.event("failure", failure)) }
        if failure == nil, !warnings.isEmpty { continuation.yield(Self.event("warnings", warnings)) }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        clients.removeValue(forKey: id)?.finish()
    }

    /// A build succeeded with these warnings (one a line); `changed`: open pages reload, and
    /// show the warnings once they open again.
    func built(warnings: String, changed: Bool) {
        failure = nil
        self.warnings = warnings
        if changed { broadcast(Self.event("reload", "")) }
    }

    func failed(_ text: String) {
        failure = text
        broadcast(Self.event("failure", text))
    }

    private func broadcast(_ event: String) {
        for continuation in clients.values { continuation.yield(event) }
    }

    /// One SSE event; data is JSON so any text survives the line-based format.
    private static func event(_ name: String, _ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        return "event: \(name)\ndata: \(data)\n\n"
    }

    /// Added to every HTML page the preview serves; never part of the built site.
    static let script = """
        (() => {
          "use strict";
          let overlay = null;
          let events = null;
          const connect = () => {
            events = new EventSource("/__teardown/events");
            events.addEventListener("reload", () => location.reload());
            events.addEventListener("failure", showFailure);
            events.addEventListener("warnings", showWarnings);
          };
          // A page kept in the back-forward cache would keep its connection open, and browsers
          // allow six per host: after a few pages the preview would stop loading anything.
          addEventListener("pagehide", () => {
            if (events) events.close();
            events = null;
          });
          addEventListener("pageshow", () => {
            if (!events) connect();
          });
          function showFailure(event) {
            const text = JSON.parse(event.data);
            if (!overlay) {
              overlay = document.createElement("div");
              overlay.id = "teardown-build-error";
              overlay.setAttribute("role", "alertdialog");
              overlay.setAttribute("aria-label", "Build failed");
              overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:2rem;" +
                "background:rgba(20,20,20,.94);color:#ffdede;font:14px/1.5 ui-monospace,monospace";
              document.body.appendChild(overlay);
            }
            overlay.replaceChildren();
            const title = document.createElement("h1");
            title.textContent = document.getElementById("teardown-nothing-built")
              ? "Build failed: nothing is built yet" : "Build failed: the page shows the last good build";
            title.style.cssText = "font-size:1.2rem;color:#fff";
            const details = document.createElement("pre");
            details.textContent = text;
            details.style.whiteSpace = "pre-wrap";
            overlay.append(title, details);
          }
          // Warnings do not stop the build: a box in a corner says them, and can be closed.
          function showWarnings(event) {
            const text = JSON.parse(event.data);
            const lines = text.split("\\n").filter(Boolean);
            let box = document.getElementById("teardown-build-warnings");
            if (box) box.remove();
            box = document.createElement("details");
            box.id = "teardown-build-warnings";
            box.setAttribute("role", "status");
            box.style.cssText = "position:fixed;right:1rem;bottom:1rem;z-index:2147483646;max-width:min(40rem,90vw);" +
              "max-height:50vh;overflow:auto;padding:.5rem .75rem;border-radius:.4rem;background:#3a2f00;color:#fff3c4;" +
              "font:13px/1.5 ui-monospace,monospace;box-shadow:0 2px 8px rgba(0,0,0,.4)";
            const summary = document.createElement("summary");
            summary.textContent = lines.length === 1 ? "1 build warning" : lines.length + " build warnings";
            const close = document.createElement("button");
            close.type = "button";
            close.textContent = "×";
            close.setAttribute("aria-label", "Close the warnings");
            close.style.cssText = "margin-left:.75rem;border:0;background:none;color:inherit;font:inherit;cursor:pointer";
            close.addEventListener("click", () => box.remove());
            summary.append(close);
            const details = document.createElement("pre");
            details.textContent = text;
            details.style.cssText = "white-space:pre-wrap;margin:.5rem 0 0";
            box.append(summary, details);
            document.body.appendChild(box);
          }
          connect();
        })();
        """
}
