import TeardownBase
import TeardownContent

/// discussion.json, beside machine.json: how many comments the machine and each part have, and
/// the newest few, which the machine view's Details & Discuss shows. Version 1 of a documented
/// format (manual: machine view). Kept apart from machine.json so that a comment rewrites this
/// small file, not the layers, masks and descriptions that draw the machine.
package struct DiscussionData {
    package struct CommentData {
        package let author: String
        package let date: String
        /// Made safe like on the pages, with links relative to the machine's page.
        package let html: String
    }

    package struct Thread {
        package let comments: Int
        /// Newest first.
        package let latestComments: [CommentData]
    }

    package let version = 1
    /// The machine's own discussion.
    package let machine: Thread
    /// Each part's, by slug.
    package let parts: [(slug: String, thread: Thread)]

    /// How many comments Details & Discuss shows; the page has them all.
    package static let latestComments = 3

    /// `thread` renders a discussion's newest comments.
    package init(_ machine: MachineView, thread: ([Comment]) -> Thread) {
        self.machine = thread(machine.community.comments)
        parts = machine.parts.map { ($0.slug, thread($0.community.comments)) }
    }

    /// Keys in sorted order, as machine.json's are.
    package var json: String {
        var writer = JSONWriter(capacity: 512 + parts.count * 256)
        writer.object { json in
            json.key("machine"); Self.write(machine, &json)
            json.key("parts")
            json.object { json in
                for (slug, thread) in parts.sorted(by: { $0.slug < $1.slug }) {
                    json.key(slug); Self.write(thread, &json)
                }
            }
            json.member("version", version)
        }
        return writer.text
    }

    private static func write(_ thread: Thread, _ json: inout JSONWriter) {
        json.object { json in
            json.member("comments", thread.comments)
            json.key("latestComments")
            json.array(thread.latestComments) { json, comment in
                json.object { json in
                    for (key, value) in [("author", comment.author), ("date", comment.date), ("html", comment.html)] {
                        json.member(key, value)
                    }
                }
            }
        }
    }
}
