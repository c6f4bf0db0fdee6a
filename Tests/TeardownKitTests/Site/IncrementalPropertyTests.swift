import Foundation
import Testing
@testable import TeardownBuild

/// A seeded random sequence of the edits a catalog sees (comments, photos, parts, machines and
/// their names and covers, layer images, templates, assets, site.yaml, manual pages and SUMMARY.md). After every edit
/// the incremental build, with its manifests and content cache, must equal a full build made
/// from nothing but the files, byte for byte. The incremental build finds the change the three
/// ways Teardown does: by walking the site (`teardown build`), from the paths that changed
/// (`teardown serve`), and from a walk taken before the edit plus the paths the edit wrote
/// (`teardown sync`). `TEARDOWN_PROPERTY_SEED` replays a sequence; `TEARDOWN_PROPERTY_STEPS`
/// sets its length.
@Suite("Incremental builds equal full builds")
struct IncrementalPropertyTests {
    @Test("After every random edit, the incremental build equals a full build byte for byte")
    func randomEdits() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["TEARDOWN_PROPERTY_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let steps = environment["TEARDOWN_PROPERTY_STEPS"].flatMap { Int($0) } ?? 200
        print("Incremental property test: seed \(seed), \(steps) edits (replay with TEARDOWN_PROPERTY_SEED=\(seed))")
        var random = SeededRandom(seed: seed)
        let site = try EditableSite()
        defer { try? FileManager.default.removeItem(atPath: (site.root as NSString).deletingLastPathComponent) }
        try site.build(into: "incremental")
        var history: [String] = []
        for step in 1...steps {
            let mode = Int.random(in: 0..<3, using: &random)
            let walked = mode == 2 ? site.builder("incremental").walkInputs() : nil
            let (edit, touched) = try site.randomEdit(&random)
            history.append(edit + [" (walked)", " (paths given)", " (walked before, paths given)"][mode])
            switch mode {
            case 0: try site.build(into: "incremental")
            case 1: try site.builder("incremental").build(changed: touched.map { site.root + "/" + $0 })
            default: try site.builder("incremental").build(inputs: walked, changed: touched.map { site.root + "/" + $0 })
            }
            try site.build(into: "full-\(step % 2)", full: true)
            let difference = EditableSite.difference(site.output("incremental"), site.output("full-\(step % 2)"))
            #expect(difference == nil, "seed \(seed), edit \(step) of: \(history.suffix(5).joined(separator: "; ")): \(difference ?? "")")
            if difference != nil { break }
        }
    }
}

/// splitmix64: the same seed gives the same edits on every machine.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// A small catalog written file by file, and the edits made to it.
private final class EditableSite {
    let root: String
    private let photo: Data
    private var counter = 0

    init() throws {
        root = Fixtures.temporaryFolder() + "/site"
        photo = try Data(contentsOf: URL(fileURLWithPath: Fixtures.site("photos") + "/content/machines/camera/parts/body/photos/workbench.jpg"))
        try write("title: \"Property catalog\"\nbase_url: \"https://example.org/\"\ncomments_per_page: 2\n", to: "content/site.yaml")
        for machine in ["box", "fan"] { try addMachine(machine) }
        try write("# Help\n\nThe manual.\n", to: "content/manual/index.md")
        try write("# Setup\n\nSee [help](index.md).\n", to: "content/manual/setup.md")
        try write("# Summary\n\n- [Help](index.md)\n- [Setup](setup.md)\n", to: "content/manual/SUMMARY.md")
        try write("<footer class=\"site-footer\"><p>Footer 0</p></footer>\n", to: "Themes/default/templates/footer.mustache")
    }

    func output(_ name: String) -> String { (root as NSString).deletingLastPathComponent + "/" + name }

    func builder(_ name: String, full: Bool = false) -> SiteBuilder {
        SiteBuilder(siteRoot: root, output: output(name), full: full, cacheFolder: output("cache"), pagefind: .notInstalled)
    }

    func build(into name: String, full: Bool = false) throws {
        try builder(name, full: full).build()
    }

    // MARK: Edits

    /// Makes one random edit; says what it was and which paths of the site it wrote or removed.
    func randomEdit(_ random: inout SeededRandom) throws -> (String, [String]) {
        counter += 1
        touched = []
        return (try edit(&random), touched)
    }

    /// The paths the edit under way wrote or removed.
    private var touched: [String] = []

    private func edit(_ random: inout SeededRandom) throws -> String {
        let machines = list("content/machines")
        let machine = machines.randomElement(using: &random)!
        let parts = list("content/machines/\(machine)/parts")
        let part = parts.randomElement(using: &random)
        let owner = part.map { "content/machines/\(machine)/parts/\($0)" } ?? "content/machines/\(machine)"
        switch Int.random(in: 0..<22, using: &random) {
        case 0, 1:
            let day = Int.random(in: 1...28, using: &random)
            try write("---\nauthor: Ada\ndate: 2024-05-\(String(format: "%02d", day))\n---\nComment \(counter).\n",
                      to: "\(owner)/comments/c\(counter).md")
            return "comment added to \(owner)"
        case 2:
            guard let comment = list("\(owner)/comments").randomElement(using: &random) else { return "no comment to edit" }
            try write("---\nauthor: Grace\ndate: 2024-06-01\n---\nEdited \(counter), *now*.\n", to: "\(owner)/comments/\(comment)")
            return "comment \(owner)/comments/\(comment) edited"
        case 3:
            guard let comment = list("\(owner)/comments").randomElement(using: &random) else { return "no comment to delete" }
            try remove("\(owner)/comments/\(comment)")
            return "comment \(owner)/comments/\(comment) deleted"
        case 4:
            try write(photo, to: "\(owner)/photos/p\(counter).jpg")
            if Bool.random(using: &random) {
                try write("caption: \"Photo \(counter)\"\nauthor: Linus\n", to: "\(owner)/photos/p\(counter).yaml")
            }
            return "photo added to \(owner)"
        case 5:
            guard let photo = list("\(owner)/photos").filter({ $0.hasSuffix(".jpg") }).randomElement(using: &random) else {
                return "no photo to delete"
            }
            try remove("\(owner)/photos/\(photo)")
            try? remove("\(owner)/photos/\((photo as NSString).deletingPathExtension).yaml")
            return "photo \(owner)/photos/\(photo) deleted"
        case 6:
            try addPart("part\(counter)", to: machine, z: Int.random(in: 0...5, using: &random))
            return "part part\(counter) added to \(machine)"
        case 7:
            guard let part, parts.count > 1 else { return "no part to delete" }
            try remove("content/machines/\(machine)/parts/\(part)")
            return "part \(machine)/\(part) deleted"
        case 8:
            guard let part else { return "no part to rename" }
            try write("name: \"Part \(counter)\"\nlayer:\n  image: layer.svg\n  z: \(counter % 4)\nspecs:\n  Mass: \"\(counter) kg\"\ntags: [t\(counter % 3)]\n",
                      to: "content/machines/\(machine)/parts/\(part)/part.yaml")
            return "part \(machine)/\(part) renamed"
        case 17:
            // Its tags alone or its specs alone, its name and layer as they were: the part's
            // facts, not its machine's head.
            guard let part else { return "no part to retag" }
            let path = "content/machines/\(machine)/parts/\(part)/part.yaml"
            let lines = try String(contentsOfFile: root + "/" + path, encoding: .utf8).split(separator: "\n").map(String.init)
            if counter % 2 == 0 {
                let tags = counter % 3 == 0 ? [] : ["tags: [t\(counter % 4)]"]
                try write((lines.filter { !$0.hasPrefix("tags:") } + tags).joined(separator: "\n") + "\n", to: path)
                return "part \(machine)/\(part) retagged"
            }
            try write(lines.map { $0.hasPrefix("  Mass:") ? "  Mass: \"\(counter) g\"" : $0 }.joined(separator: "\n") + "\n", to: path)
            return "specs of \(machine)/\(part) edited"
        case 18:
            // Two parts trade tags: every list keeps its length, and shows other parts.
            let all = machines.flatMap { m in list("content/machines/\(m)/parts").map { "content/machines/\(m)/parts/\($0)/part.yaml" } }
            guard all.count > 1 else { return "no parts to trade tags" }
            let first = all.randomElement(using: &random)!, second = all.randomElement(using: &random)!
            let texts = try [first, second].map { try String(contentsOfFile: root + "/" + $0, encoding: .utf8) }
            let tags = texts.map { text in text.split(separator: "\n").first { $0.hasPrefix("tags:") }.map(String.init) }
            for (path, (text, tag)) in zip([first, second], zip(texts, tags.reversed())) {
                let kept = text.split(separator: "\n").filter { !$0.hasPrefix("tags:") }.map(String.init)
                try write((kept + (tag.map { [$0] } ?? [])).joined(separator: "\n") + "\n", to: path)
            }
            return "\(first) and \(second) traded tags"
        case 19:
            // One machine in, the last one out: every list holds the same numbers, which now
            // name other machines.
            guard let last = machines.last else { return "no machine to replace" }
            try remove("content/machines/\(last)")
            try addMachine("a\(counter)")
            return "machine \(last) replaced by a\(counter), first in order"
        case 20:
            // What other machines' list pages and catalog.json show of it: its name, its cover
            // (a photo, or else its layers) and its date.
            let covered = Bool.random(using: &random)
            if covered { try write(photo, to: "content/machines/\(machine)/cover.jpg") }
            try write("name: \"Machine \(counter)\"\nsummary: \"Renamed.\"\ncanvas: {width: 200, height: 100}\ntags: [test]\n"
                      + "updated: 2024-07-\(String(format: "%02d", 1 + counter % 28))\n" + (covered ? "cover: cover.jpg\n" : ""),
                      to: "content/machines/\(machine)/machine.yaml")
            return "machine \(machine) renamed" + (covered ? ", with a cover photo" : "")
        case 9:
            try write("The description, version \(counter).\n", to: "\(owner)/description.md")
            return "description of \(owner) edited"
        case 10:
            if machines.count < 4 || Bool.random(using: &random) {
                try addMachine("m\(counter)")
                return "machine m\(counter) added"
            }
            try remove("content/machines/\(machine)")
            return "machine \(machine) deleted"
        case 11:
            guard let part else { return "no layer to redraw" }
            try write(Self.layer(color: counter), to: "content/machines/\(machine)/parts/\(part)/layer.svg")
            return "layer of \(machine)/\(part) redrawn"
        case 12:
            try write("<footer class=\"site-footer\"><p>Footer \(counter)</p></footer>\n", to: "Themes/default/templates/footer.mustache")
            return "footer template edited"
        case 13:
            try write("/* extra \(counter) */\n.extra { color: #\(String(format: "%06x", counter)); }\n", to: "Themes/default/assets/extra.css")
            return "asset edited"
        case 14:
            // The list pages' size too, so tags and letters run over pages and come back.
            try write("title: \"Property catalog \(counter)\"\nbase_url: \"https://example.org/\"\ncomments_per_page: \(2 + counter % 2)\n"
                      + "list_page_size: \(1 + counter % 3)\n", to: "content/site.yaml")
            return "site.yaml edited"
        case 16:
            // A template only listing pages use.
            let tag = try String(contentsOfFile: Fixtures.demoSite + "/Themes/default/templates/tag.mustache", encoding: .utf8)
            try write(tag + "{{! edited \(counter) }}\n", to: "Themes/default/templates/tag.mustache")
            return "tag template edited"
        case 15:
            try write("# Setup \(counter)\n\nSee [help](index.md). Step \(counter).\n", to: "content/manual/setup.md")
            return "manual page edited"
        default:
            let extra = counter % 2 == 0 ? "- [Extra](extra.md)\n" : ""
            if !extra.isEmpty { try write("# Extra\n\nMore.\n", to: "content/manual/extra.md") }
            try write("# Summary\n\n- [Setup](setup.md)\n- [Help](index.md)\n" + extra, to: "content/manual/SUMMARY.md")
            return "SUMMARY.md edited"
        }
    }

    private func addMachine(_ slug: String) throws {
        try write("name: \"Machine \(slug)\"\nsummary: \"A machine.\"\ncanvas: {width: 200, height: 100}\ntags: [test]\n",
                  to: "content/machines/\(slug)/machine.yaml")
        try write("The \(slug)'s description.\n", to: "content/machines/\(slug)/description.md")
        try addPart("lid", to: slug, z: 1)
        try addPart("base", to: slug, z: 0)
    }

    private func addPart(_ slug: String, to machine: String, z: Int) throws {
        let folder = "content/machines/\(machine)/parts/\(slug)"
        try write("name: \"Part \(slug)\"\nlayer:\n  image: layer.svg\n  z: \(z)\nspecs:\n  Mass: \"1.2 kg\"\n", to: folder + "/part.yaml")
        try write(Self.layer(color: z), to: folder + "/layer.svg")
        try write("The \(slug)'s description.\n", to: folder + "/description.md")
        try write("---\nauthor: Ada\ndate: 2024-05-01\n---\nHello, **\(slug)**.\n", to: folder + "/comments/hello.md")
    }

    private static func layer(color: Int) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\" viewBox=\"0 0 200 100\">"
            + "<rect x=\"\(10 + color % 50)\" y=\"10\" width=\"80\" height=\"60\" fill=\"#\(String(format: "%06x", color * 4099 % 0xFFFFFF))\"/></svg>\n"
    }

    private func list(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    private func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }

    private func write(_ data: Data, to path: String) throws {
        touched.append(path)
        let full = root + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
    }

    private func remove(_ path: String) throws {
        touched.append(path)
        try FileManager.default.removeItem(atPath: root + "/" + path)
    }

    // MARK: Comparing

    /// The first difference between two output trees, or nil when they hold the same files with the same bytes.
    static func difference(_ left: String, _ right: String) -> String? {
        let leftFiles = files(left), rightFiles = files(right)
        if let only = leftFiles.subtracting(rightFiles).sorted().first { return "\(only) is only in the incremental build" }
        if let only = rightFiles.subtracting(leftFiles).sorted().first { return "\(only) is only in the full build" }
        for path in leftFiles.sorted() where FileManager.default.contents(atPath: left + "/" + path)
            != FileManager.default.contents(atPath: right + "/" + path) {
            return "\(path) differs"
        }
        return nil
    }

    private static func files(_ root: String) -> Set<String> {
        var found = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.insert(path)
            }
        }
        return found
    }
}
