import CTeardownSystem
import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia

/// What sync does with one submission.
package enum SyncDecision: Sendable {
    /// Files to write, as paths relative to the site folder, in the order to write them.
    case accept(summary: String, files: [(path: String, data: Data)])
    case reject(reason: String)
    /// Files to remove, in the order to remove them.
    case takeDown(target: String, reason: String?, files: [String])
    case alreadyPresent(String)
}

/// Checks one fetched submission against the site's content and limits, and works out where
/// an accepted one goes. It reads nothing but its inputs and writes nothing.
package struct SubmissionReview: Sendable {
    package static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    package let content: SiteContent

    package init(content: SiteContent) {
        self.content = content
    }

    /// The files of the comment or photo with this id already in the content, relative to the
    /// site folder; nil when there is none. The id is looked for in each machine's list of ids
    /// first (`MachineBrief.ids`), so only a machine that holds it has its head and text decoded.
    ///
    /// With `filedBySync`, only content that carries the id sync writes (a comment's front
    /// matter `id`, a photo sidecar's `id`) counts: a takedown must never reach the owner's
    /// hand-written comments or the designer's photos, whose file names are public in their
    /// URLs. Without it, a file name counts too, so a new submission cannot take an id that
    /// names existing content.
    package func existing(_ id: String, filedBySync: Bool = false) -> [String]? {
        let root = content.root
        func relative(_ file: SourceFile) -> String {
            file.absolutePath.hasPrefix(root + "/") ? String(file.absolutePath.dropFirst(root.count + 1)) : file.absolutePath
        }
        var files: [String] = []
        for machine in content.machines where Self.contains(machine.brief.ids, "\n" + id + "\n") {
            if Self.contains(machine.head.commentIDs, "\n" + id + "\n") {
                for comment in machine.community.comments + machine.parts.flatMap(\.community.comments)
                where comment.id == id && (!filedBySync || comment.id != comment.body.file.stem) {
                    files.append(relative(comment.body.file))
                }
            }
            for photo in machine.allPhotos where (filedBySync ? photo.id : photo.id ?? photo.file.stem) == id {
                // The image goes first, so a takedown never leaves a photo without its credit.
                files += [relative(photo.file)] + (photo.sidecar.map { [relative($0)] } ?? [])
            }
        }
        return files.isEmpty ? nil : files
    }

    /// Whether `needle`'s bytes occur in `text`'s, through the C library's `memmem`: Foundation's
    /// `contains` goes through UTF-16, and the standard library's generic search is slow over
    /// every machine's comment ids.
    package static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { needle in
                td_contains(haystack.baseAddress, haystack.count, needle.baseAddress, needle.count) != 0
            }
        }
    }

    /// Problems with the names alone, found before anything is downloaded.
    package static func nameProblem(_ submission: InboxSubmission) -> String? {
        guard Inbox.isValidID(submission.id) else {
            return "id '\(submission.id.prefix(80))' is not 1-64 letters, digits, '-' or '_'"
        }
        guard !submission.files.isEmpty else { return "the submission lists no files" }
        for file in submission.files {
            if file.contains("/") || file.contains("\\") || file.contains("\0") || file == "." || file == ".." {
                return "file name '\(file.prefix(80))' has path components"
            }
            guard file.hasPrefix(submission.id + ".") else {
                return "file name '\(file.prefix(80))' does not start with the submission id '\(submission.id).'"
            }
        }
        return nil
    }

    package func review(_ submission: InboxSubmission, files: [String: Data]) -> SyncDecision {
        let id = submission.id
        let (comment, photo, takedown) = (SubmissionFiles.comment(id), SubmissionFiles.photo(id), SubmissionFiles.takedown(id))
        if let data = files[comment] { return self.comment(id, data: data, name: comment) }
        if let data = files[photo] { return self.photo(id, data: data, name: photo, files: files) }
        if let data = files[takedown] { return self.takedown(id, data: data, name: takedown) }
        return .reject(reason: "no \(comment), \(photo) or \(takedown) in the submission")
    }

    // MARK: Kinds

    private func comment(_ id: String, data: Data, name: String) -> SyncDecision {
        let file = SourceFile(absolutePath: name, displayPath: name)
        guard let text = Self.text(data) else { return .reject(reason: "\(name): not UTF-8 text, or it contains NUL") }
        let split: FrontMatter
        do {
            split = try FrontMatter.split(text)
        } catch {
            return .reject(reason: "\(name): front matter has no closing '---' line")
        }
        var diagnostics: [Diagnostic] = []
        guard let yamlText = split.yaml,
              let yaml = YAMLMap.parse(yamlText, file: file, lineOffset: 1, expected: "comment details", diagnostics: &diagnostics)
        else { return .reject(reason: diagnostics.first?.plain ?? "\(name): no front matter with machine, author and date") }
        let machineSlug = yaml.string("machine", required: true, diagnostics: &diagnostics)
        let partSlug = yaml.string("part", diagnostics: &diagnostics)
        let author = yaml.string("author", required: true, diagnostics: &diagnostics)
        let date = yaml.date("date", required: true, diagnostics: &diagnostics)
        if let error = diagnostics.first(where: { $0.severity == .error }) { return .reject(reason: error.plain) }
        guard let machineSlug, let author, let date else { return .reject(reason: "\(name): incomplete") }
        let target: String
        switch folder(machine: machineSlug, part: partSlug, yaml: yaml) {
        case .success(let folder): target = folder
        case .failure(let problem): return .reject(reason: problem.reason)
        }
        // Every reason at once, so that a sender fixes the submission in one go, not one reason a sync.
        var reasons: [String] = []
        if let problem = authorProblem(author, at: yaml.location(of: "author")) { reasons.append(problem) }
        let limits = content.config.limits
        let length = TextLength.trimmedCharacters(split.body)
        if !(limits.commentMin...limits.commentMax).contains(length) {
            reasons.append("\(file.location(line: split.bodyLine)): "
                + Problem.commentLength(length, min: limits.commentMin, max: limits.commentMax).message)
        } else if let problem = CommunityText.problem(split.body, what: "the comment", maxCharacters: limits.commentMax, multiline: true) {
            reasons.append("\(file.location(line: split.bodyLine)): \(problem)")
        }
        if let problem = CommunityText.dateProblem(date) { reasons.append("\(yaml.location(of: "date")): \(problem)") }
        if !reasons.isEmpty { return .reject(reason: reasons.joined(separator: "; ")) }
        let written = CommunityFiles.comment(id: id, author: author, date: date.text, body: split.body)
        let path = "\(target)/comments/\(Self.contentName(written)).md"
        return settle(id, files: [(path, written)],
                      summary: "comment by \(author) on \(partSlug.map { "\(machineSlug)/\($0)" } ?? machineSlug) -> \(path)")
    }

    private func photo(_ id: String, data: Data, name: String, files: [String: Data]) -> SyncDecision {
        var diagnostics: [Diagnostic] = []
        let yaml: YAMLMap
        switch Self.details(data, name: name, expected: "photo details") {
        case .success(let parsed): yaml = parsed
        case .failure(let problem): return .reject(reason: problem.reason)
        }
        let machineSlug = yaml.string("machine", required: true, diagnostics: &diagnostics)
        let partSlug = yaml.string("part", diagnostics: &diagnostics)
        let author = yaml.string("author", required: true, diagnostics: &diagnostics)
        let date = yaml.date("date", required: true, diagnostics: &diagnostics)
        let caption = yaml.string("caption", diagnostics: &diagnostics)
        let license = yaml.string("license", diagnostics: &diagnostics)
        let credit = yaml.string("credit", diagnostics: &diagnostics)
        let location = yaml.bool("location", diagnostics: &diagnostics) ?? false
        let imageName = yaml.string("file", required: true, diagnostics: &diagnostics)
        if let error = diagnostics.first(where: { $0.severity == .error }) { return .reject(reason: error.plain) }
        guard let machineSlug, let author, let date, let imageName else { return .reject(reason: "\(name): incomplete") }
        let target: String
        switch folder(machine: machineSlug, part: partSlug, yaml: yaml) {
        case .success(let folder): target = folder
        case .failure(let problem): return .reject(reason: problem.reason)
        }
        var reasons: [String] = []
        if let problem = authorProblem(author, at: yaml.location(of: "author")) { reasons.append(problem) }
        reasons += Self.photoTextProblems(yaml, caption: caption, credit: credit, license: license)
        if let problem = CommunityText.dateProblem(date) { reasons.append("\(yaml.location(of: "date")): \(problem)") }
        if !reasons.isEmpty { return .reject(reason: reasons.joined(separator: "; ")) }
        let ext = (imageName as NSString).pathExtension.lowercased()
        let image: Data
        switch photoFile(imageName, of: id, in: files, at: yaml.location(of: "file")) {
        case .success(let data): image = data
        case .failure(let problem): return .reject(reason: problem.reason)
        }
        // Named by the id with the bytes: the same submission lands on the same file, and the
        // same photo sent twice, with two captions, is two photos rather than one caption lost.
        let stem = Self.contentName(Data(id.utf8) + image)
        let sidecar = CommunityFiles.photoSidecar(id: id, author: author, date: date.text, caption: caption, license: license,
                                                  credit: credit, location: location)
        let imagePath = "\(target)/photos/\(stem).\(ext == "jpeg" ? "jpg" : ext)"
        // The sidecar is written first: a photo is never published without its credit.
        return settle(id, files: [("\(target)/photos/\(stem).yaml", sidecar), (imagePath, image)],
                      summary: "photo by \(author) of \(partSlug.map { "\(machineSlug)/\($0)" } ?? machineSlug) -> \(imagePath)")
    }

    /// A photo's caption, credit and license: each one line of plain text within its limit.
    private static func photoTextProblems(_ yaml: YAMLMap, caption: String?, credit: String?, license: String?) -> [String] {
        var reasons: [String] = []
        for (key, value, limit) in [("caption", caption, CommunityText.maxCaption), ("credit", credit, CommunityText.maxCredit),
                                    ("license", license, CommunityText.maxCredit)] {
            guard let value else { continue }
            if value.count > limit {
                reasons.append("\(yaml.location(of: key)): the \(key) is \(value.count) characters long; the limit is \(limit)")
            } else if let problem = CommunityText.problem(value, what: "the \(key)", maxCharacters: limit, multiline: false) {
                reasons.append("\(yaml.location(of: key)): \(problem)")
            }
        }
        return reasons
    }

    /// The photo a submission's details name, when it is in the submission, is an image of the
    /// kind its name says, within the limits, and decodes: a photo the build could not publish is
    /// refused now, while its sender can still be told.
    private func photoFile(_ imageName: String, of id: String, in files: [String: Data], at fileAt: SourceLocation)
        -> Result<Data, TargetProblem> {
        let ext = (imageName as NSString).pathExtension.lowercased()
        guard imageName.hasPrefix(id + "."), !imageName.contains("/"), Self.imageExtensions.contains(ext) else {
            return .failure(TargetProblem(reason: "\(fileAt): 'file' must name \(id).jpg, .jpeg, .png or .webp in the submission"))
        }
        guard let image = files[imageName] else {
            return .failure(TargetProblem(reason: "\(fileAt): the photo '\(imageName)' is not in the submission"))
        }
        let limits = content.config.limits
        guard image.count <= limits.photoMaxBytes else {
            return .failure(TargetProblem(reason: "\(imageName): \(image.count) bytes is over the limit of \(limits.photoMaxBytes)"))
        }
        let format: ImageFormat = ext == "png" ? .png : ext == "webp" ? .webp : .jpeg
        // A header that cannot be read is the same rejection as a wrong format.
        guard ImageFormat.sniff(image) == format, let size = try? ImageHeader.size(of: image, pathExtension: ext),
              size.width > 0, size.height > 0
        else {
            return .failure(TargetProblem(reason: "\(imageName): not a \(ext == "png" ? "PNG" : ext == "webp" ? "WebP" : "JPEG") image"))
        }
        guard size.width * size.height <= limits.photoMaxPixels else {
            return .failure(TargetProblem(
                reason: "\(imageName): \(size.width)x\(size.height) pixels is over the limit of \(limits.photoMaxPixels)"))
        }
        do throws(Vips.Failure) {
            try Vips.check(image, format: format, maxPixels: limits.photoMaxPixels)
        } catch {
            return .failure(TargetProblem(reason: "\(imageName): the image cannot be decoded: \(error.reason)"))
        }
        return .success(image)
    }

    private func takedown(_ id: String, data: Data, name: String) -> SyncDecision {
        var diagnostics: [Diagnostic] = []
        let yaml: YAMLMap
        switch Self.details(data, name: name, expected: "takedown details") {
        case .success(let parsed): yaml = parsed
        case .failure(let problem): return .reject(reason: problem.reason)
        }
        let target = yaml.string("target", required: true, diagnostics: &diagnostics)
        let reason = yaml.string("reason", diagnostics: &diagnostics)
        if let error = diagnostics.first(where: { $0.severity == .error }) { return .reject(reason: error.plain) }
        guard let target else { return .reject(reason: "\(name): no target") }
        guard Inbox.isValidID(target) else { return .reject(reason: "\(yaml.location(of: "target")): '\(target.prefix(80))' is not a submission id") }
        guard let files = existing(target, filedBySync: true) else { return .alreadyPresent("\(target) is not content sync filed; hand-written comments and designers' photos are never taken down") }
        return .takeDown(target: target, reason: reason, files: files)
    }

    // MARK: Helpers

    /// A YAML file of a submission, read as a mapping; the reason names the file and line.
    private static func details(_ data: Data, name: String, expected: String) -> Result<YAMLMap, TargetProblem> {
        guard let text = text(data) else { return .failure(TargetProblem(reason: "\(name): not UTF-8 text, or it contains NUL")) }
        var diagnostics: [Diagnostic] = []
        let file = SourceFile(absolutePath: name, displayPath: name)
        guard let yaml = YAMLMap.parse(text, file: file, expected: expected, diagnostics: &diagnostics) else {
            return .failure(TargetProblem(reason: diagnostics.first?.plain ?? "\(name): not a mapping"))
        }
        return .success(yaml)
    }

    private struct TargetProblem: Error { package let reason: String }

    /// The bundle folder a submission goes to, relative to the site folder.
    private func folder(machine slug: String, part partSlug: String?, yaml: YAMLMap) -> Result<String, TargetProblem> {
        guard let machine = content.machines.first(where: { $0.slug == slug }) else {
            return .failure(TargetProblem(reason: "\(yaml.location(of: "machine")): unknown machine '\(slug.prefix(80))'"))
        }
        // The archive is the designer's, byte for byte: sync does not rewrite it.
        if let archive = machine.archive {
            return .failure(TargetProblem(reason: "machine '\(slug)' is published from \(archive), which sync does not change: "
                                              + "unpack it into content/machines/\(slug)/ to take community content"))
        }
        let base = "content/machines/\(machine.slug)"
        guard let partSlug else { return .success(base) }
        guard let part = machine.outlines.first(where: { $0.slug == partSlug }) else {
            return .failure(TargetProblem(reason: "\(yaml.location(of: "part")): unknown part '\(partSlug.prefix(80))' of machine '\(slug)'"))
        }
        return .success("\(base)/parts/\(part.slug)")
    }

    private func authorProblem(_ author: String, at location: SourceLocation) -> String? {
        let limits = content.config.limits
        guard (limits.authorMin...limits.authorMax).contains(author.count) else {
            return "\(location): " + Problem.authorLength(String(author.prefix(80)), min: limits.authorMin, max: limits.authorMax).message
        }
        return CommunityText.problem(author, what: "the author's name", maxCharacters: limits.authorMax, multiline: false)
            .map { "\(location): \($0)" }
    }

    /// Accepts, unless the same files are already there or the id belongs to something else.
    private func settle(_ id: String, files: [(path: String, data: Data)], summary: String) -> SyncDecision {
        let root = content.root
        let present = files.allSatisfy { FileManager.default.contents(atPath: root + "/" + $0.path) == $0.data }
        if present { return .alreadyPresent(files.map(\.path).joined(separator: ", ")) }
        if let other = existing(id), Set(other) != Set(files.map(\.path)) {
            return .reject(reason: "duplicate: id '\(id)' is already used by \(other.first ?? "other content")")
        }
        return .accept(summary: summary, files: files)
    }

    /// A name made from the bytes, so the same submission always lands on the same file.
    package static func contentName(_ data: Data) -> String { String(SHA256Hex.of(data).prefix(16)) }

    /// The same reading as a content file's: a submission from Windows has "\r\n" line ends.
    package static func text(_ data: Data) -> String? { TextFile.decode(data) }
}

extension Diagnostic {
    /// "file:line:col: message", without the severity: the form of a rejection reason.
    package var plain: String { "\(location): \(problem.message)" }
}
