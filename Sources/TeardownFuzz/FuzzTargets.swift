import Foundation
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownMedia
@testable import TeardownBuild
@testable import TeardownInbox
import Yams

/// What the fuzzer drives: the bundle loader with its front matter, the sync inbox reader, the
/// parsers intake runs on what visitors send, the checks and writers of community text, and
/// the content cache's entry decoder.
/// The first byte of an input picks the file it becomes; the rest is that file's bytes.
enum FuzzTargets {
    /// A tiny site written once per process; each input replaces one of its files.
    static let site: String = {
        let root = NSTemporaryDirectory() + "teardown-fuzz-\(getpid())"
        let files = [
            "content/site.yaml": "title: Fuzz\nbase_url: \"https://example.org/\"\n",
            "content/machines/box/machine.yaml": "name: Box\ncanvas: {width: 20, height: 10}\n",
            "content/machines/box/description.md": "A box.\n",
            "content/machines/box/parts/lid/part.yaml": "name: Lid\nlayer: {image: lid.svg, z: 1}\nspecs: {Mass: \"1 kg\"}\n",
            "content/machines/box/parts/lid/lid.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\"/>\n",
            "content/machines/box/parts/lid/comments/c.md": "---\nauthor: Ada\ndate: 2024-05-01\n---\nHi.\n",
            "content/machines/box/parts/lid/photos/p.yaml": "caption: A photo\n",
            "content/manual/index.md": "---\ntitle: Help\n---\n# Help\n",
            "content/manual/SUMMARY.md": "# Summary\n\n- [Help](index.md)\n",
        ]
        for (path, text) in files {
            let full = root + "/" + path
            // A fixture that cannot be written makes the bundle's load fail, which the target exercises too.
            try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
        }
        // libFuzzer ends the process with exit(), which runs this; a crash leaves the folder for a look.
        atexit { FileSystem.discard(NSTemporaryDirectory() + "teardown-fuzz-\(getpid())") }
        return root
    }()

    static let bundleFiles = [
        "content/machines/box/machine.yaml", "content/machines/box/parts/lid/part.yaml",
        "content/machines/box/parts/lid/comments/c.md", "content/machines/box/parts/lid/photos/p.yaml",
        "content/site.yaml", "content/manual/index.md", "content/manual/SUMMARY.md",
    ]

    /// Loads the site with one file replaced by the input, then puts the file back.
    static func bundle(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let path = site + "/" + bundleFiles[Int(selector) % bundleFiles.count]
        let original = FileManager.default.contents(atPath: path)
        _ = FileManager.default.createFile(atPath: path, contents: Data(input.dropFirst()))
        defer { _ = FileManager.default.createFile(atPath: path, contents: original) }
        let (content, _) = ContentLoader(siteRoot: site, archiveCache: site + "/.cache").load()
        // What a build does next with the loaded values: read specs, index tags and letters.
        for machine in content.machines {
            for part in machine.parts { _ = part.specs.compactMap(\.reading.quantity).map(SpecConverter.conversions(of:)) }
        }
        _ = SiteIndex(content)
    }

    static let review: SubmissionReview = {
        let (content, _) = ContentLoader(siteRoot: site, archiveCache: site + "/.cache").load()
        return SubmissionReview(content: content)
    }()

    /// Reads the input as an inbox's manifest.json, or as one submission's file, all in memory.
    static func inbox(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let data = Data(input.dropFirst())
        switch selector % 4 {
        case 0:
            // The target looks for crashes: a rejected input is a normal outcome.
            for submission in (try? Inbox.parseManifest(data, source: "manifest.json")) ?? [] {
                _ = SubmissionReview.nameProblem(submission)
            }
        case 1:
            _ = review.review(InboxSubmission(id: "s1", files: ["s1.comment.md"], sha256: [:]), files: ["s1.comment.md": data])
        case 2:
            _ = review.review(InboxSubmission(id: "s1", files: ["s1.photo.yaml", "s1.png"], sha256: [:]),
                              files: ["s1.photo.yaml": data, "s1.png": tinyPNG])
        default:
            _ = review.review(InboxSubmission(id: "s1", files: ["s1.takedown.yaml"], sha256: [:]), files: ["s1.takedown.yaml": data])
        }
    }

    /// A real PNG of 2 x 1 pixels, so a photo submission gets as far as its sidecar's checks.
    static let tinyPNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGM4ISf3X07uxH8AECsEBxOnYNoAAAAASUVORK5CYII=")!

    /// What intake reads from strangers: form data as it streams in, cut where the input says,
    /// and the metadata of the photos whose location it removes.
    static func intake(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        let rest = Array(input.dropFirst(2))
        switch input[0] % 4 {
        case 0:
            var reader = MultipartReader(boundary: "b0und")
            let cut = rest.isEmpty ? 0 : Int(input[1]) % rest.count
            // The target looks for crashes: a rejected input is a normal outcome.
            _ = try? reader.feed(rest[..<cut])
            _ = try? reader.feed(rest[cut...])
            _ = try? reader.finish()
        case 1: _ = LocationScrubber.scrub(Data(rest), format: .jpeg)
        case 2: _ = LocationScrubber.scrub(Data(rest), format: .png)
        default: _ = LocationScrubber.scrub(Data(rest), format: .webp)
        }
    }

    /// What intake and sync read of text: a name, a caption or a comment's body checked against
    /// the community limits, then written as front matter, rendered and highlighted. Whatever
    /// passes the checks must come back as the same text (from Yams for one line, from after the
    /// front matter for a comment's lines), hold no control character
    /// and stay within its byte limit; the renderer must write no script and the highlighter
    /// keep every character.
    static func text(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let text = String(decoding: input.dropFirst(), as: UTF8.self)
        let multiline = selector % 2 == 1
        let limit = [10, 200, CommunityText.maxCaption][Int(selector / 2) % 3]
        if CommunityText.problem(text, what: "text", maxCharacters: limit, multiline: multiline) == nil {
            precondition(text.utf8.count <= limit * 4, "over the byte limit")
            precondition(!text.unicodeScalars.contains { ControlCharacters.isControl($0) && !["\n", "\t", "\r"].contains($0) },
                         "a control character passed")
            var fields = YAMLFields()
            if multiline {
                // A comment is the body after the front matter, never a YAML value (Yams drops a
                // value's leading U+FEFF, which a text of one line may not hold).
                fields.add("author", "Ada")
                let body = try? FrontMatter.split(fields.frontMatter + text).body
                precondition(body == text, "the front matter did not give the body back: \(text.debugDescription)")
            } else {
                fields.add("author", text)
                // The target looks for crashes: YAML that does not parse is a normal outcome.
                let loaded = try? Yams.load(yaml: fields.text) as? [String: Any]
                precondition(loaded?["author"] as? String == text, "YAML did not give the text back: \(fields.text.debugDescription)")
            }
        }
        let html = MarkdownRenderer().render(text, trust: .community)
        precondition(!html.lowercased().contains("<script"), "a comment wrote a script element")
        if let language = CodeHighlighter.Language(name: ["sh", "yaml", "json", "markdown", "c"][Int(selector) % 5]) {
            let code = Array(text.utf8)
            // Compared as bytes: as Characters, a combining mark after ">" or ";" joins it.
            let plain = CodeHighlighter.text(of: CodeHighlighter.highlight(code, as: language))
            precondition(plain == code, "the highlighter changed the code")
        }
    }

    /// Reads the input as a content cache entry file: its length field, its entry, the head
    /// after it, and its text; as a head alone; and as a row of the image index, which is read
    /// by the same kind of hand-written reader.
    static func cache(_ input: [UInt8]) {
        let data = Data(input)
        _ = try? BinaryDecoder().read(BundleImages.self, from: data)
        _ = try? BinaryDecoder().read(MachineHead.self, from: data)  // refusing damage is what is fuzzed
        guard let length = ContentCache.headLength(of: data) else { return }
        if let (entry, _) = ContentCache.decode(head: data.subdata(in: 8..<8 + length)), entry.headLength >= 0,
           entry.headLength <= data.count - 8 - length {
            // Refusing a damaged head is what is fuzzed.
            _ = try? BinaryDecoder().read(MachineHead.self, from: data.subdata(in: 8 + length..<8 + length + entry.headLength))
        }
        _ = data.subdata(in: 8 + length..<data.count)
    }

    static func run(_ target: String, _ input: [UInt8]) {
        switch target {
        case "bundle": bundle(input)
        case "inbox": inbox(input)
        case "intake": intake(input)
        case "text": text(input)
        case "cache": cache(input)
        case "store": StoreFuzz.run(input)
        default: FileHandle.standardError.write(Data("unknown fuzz target '\(target)'\n".utf8))
        }
    }
}
