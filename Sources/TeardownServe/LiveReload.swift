import Foundation

/// Tells open pages to reload after a build, or shows them the build's errors: one
/// server-sent event stream per open page.
actor LiveReload {
    private var clients: [UUID: AsyncStream<String>.Continuation] = [:]
    private var failure: String?

    func subscribe() -> (UUID, AsyncStream<String>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        clients[id] = continuation
        // A page opened while the site is broken shows the errors at once.
        if let failure { continuation.yield(Self.event("failure", failure)) }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        clients.removeValue(forKey: id)?.finish()
    }

    func reload() {
        failure = nil
        broadcast(Self.event("reload", ""))
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
          connect();
        })();
        """
}
