import Foundation
import TeardownBase

/// The few pages intake answers a form post with when the browser runs no script: a
/// thank-you page, and a page that says what to fix and gives the comment back to post again.
enum IntakePages {
    static func thanks(siteTitle: String, back: String, held: Bool) -> String {
        let next = held
            ? "A moderator will look at it first; once approved, it appears on the page after the site's next update."
            : "It appears on the page after the site's next update."
        return page(title: "Thank you", siteTitle: siteTitle, body: """
            <h1>Thank you</h1>
            <p>Your submission was received. \(next)</p>
            <p><a href="\(HTMLText.escape(back))">Back to the page</a></p>
            """)
    }

    /// The refusal, with the comment form filled in again so nothing typed is lost.
    static func refused(siteTitle: String, reason: String, back: String, action: String, fields: [String: String]) -> String {
        var body = """
            <h1>Not sent</h1>
            <p role="alert">Your submission was not accepted: \(HTMLText.escape(reason)).</p>
            """
        if let text = fields["body"] {
            body += """

                <form method="post" action="\(HTMLText.escape(action))">
                \(hidden(fields, except: ["body", "author", "website"]))
                <p><label for="author">Your name</label><br><input id="author" name="author" value="\(HTMLText.escape(fields["author"] ?? ""))"></p>
                <p><label for="body">Comment</label><br><textarea id="body" name="body" rows="6" cols="60">\(HTMLText.escape(text))</textarea></p>
                <p><button type="submit">Post again</button></p>
                </form>
                """
        } else {
            body += "\n<p>Go back, change what the message names, and send it again.</p>"
        }
        body += "\n<p><a href=\"\(HTMLText.escape(back))\">Back to the page</a></p>"
        return page(title: "Not sent", siteTitle: siteTitle, body: body)
    }

    static func notice(_ title: String, _ message: String, siteTitle: String) -> String {
        page(title: title, siteTitle: siteTitle, body: "<h1>\(HTMLText.escape(title))</h1>\n<p>\(HTMLText.escape(message))</p>")
    }

    /// The form's own hidden fields, sent back with the refusal so the sender can try again:
    /// only those the form has.
    private static func hidden(_ fields: [String: String], except: Set<String>) -> String {
        fields.keys.sorted().filter { ["machine", "part", "back"].contains($0) && !except.contains($0) }.map {
            "<input type=\"hidden\" name=\"\(HTMLText.escape($0))\" value=\"\(HTMLText.escape(fields[$0]!))\">"
        }.joined(separator: "\n")
    }

    private static func page(title: String, siteTitle: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <title>\(HTMLText.escape(title)) · \(HTMLText.escape(siteTitle))</title>
        <style>body{font:1.05rem/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
        textarea,input{font:inherit;max-width:100%}a{color:#0a5}</style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>

        """
    }
}
