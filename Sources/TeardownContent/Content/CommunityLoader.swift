import Foundation
import TeardownBase

/// Reads the comments/ and photos/ folders of a machine or a part.
package struct CommunityLoader {
    package static let photoExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    package let limits: CommunityLimits

    package func load(in folder: SourceFile, diagnostics: inout [Diagnostic]) -> Community {
        let comments = loadComments(folder.appending("comments"), diagnostics: &diagnostics)
        let photos = loadPhotos(folder.appending("photos"), diagnostics: &diagnostics)
        return Community(
            comments: comments.sorted { ($0.date, $0.id) > ($1.date, $1.id) },
            photos: photos
        )
    }

    private func loadComments(_ folder: SourceFile, diagnostics: inout [Diagnostic]) -> [Comment] {
        TextFile.list(folder, diagnostics: &diagnostics).map(\.name).compactMap { name in
            let file = folder.appending(name)
            guard file.pathExtension == "md" else {
                diagnostics.append(.warning(.invalidValue(key: "comments", reason: "'\(name)' is not a .md file and is ignored"),
                                            at: file.location()))
                return nil
            }
            return loadComment(file, diagnostics: &diagnostics)
        }
    }

    package func loadComment(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> Comment? {
        guard let split = FrontMatter.read(file, diagnostics: &diagnostics) else { return nil }
        guard let yamlText = split.yaml else {
            diagnostics.append(.error(.missingKey("author"), at: file.location()))
            return nil
        }
        guard let yaml = YAMLMap.parse(yamlText, file: file, lineOffset: 1, expected: "comment details",
                                       diagnostics: &diagnostics)
        else { return nil }
        yaml.warnUnknownKeys(known: CommunityFiles.commentKeys, diagnostics: &diagnostics)
        let author = yaml.string("author", required: true, diagnostics: &diagnostics)
        let date = yaml.date("date", required: true, diagnostics: &diagnostics)
        let id = yaml.string("id", diagnostics: &diagnostics) ?? file.stem
        guard let author, let date else { return nil }
        // Limits are enforced when a submission is accepted; content already in a bundle
        // is kept and published, so a tightened limit only warns.
        if !(limits.authorMin...limits.authorMax).contains(author.count) {
            diagnostics.append(.warning(.authorLength(author, min: limits.authorMin, max: limits.authorMax),
                                        at: yaml.location(of: "author")))
        }
        let length = TextLength.trimmedCharacters(split.body)
        if !(limits.commentMin...limits.commentMax).contains(length) {
            diagnostics.append(.warning(.commentLength(length, min: limits.commentMin, max: limits.commentMax),
                                        at: file.location(line: split.bodyLine)))
        }
        let body = MarkdownSource(text: split.body, file: file, firstLine: split.bodyLine)
        body.warnLeftOutHTML(diagnostics: &diagnostics)
        return Comment(id: id, author: author, date: date, body: body)
    }

    private func loadPhotos(_ folder: SourceFile, diagnostics: inout [Diagnostic]) -> [Photo] {
        let names = TextFile.list(folder, keepingLinks: true, diagnostics: &diagnostics).map(\.name)
        let images = names.filter { Self.photoExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        let imageSet = Set(images)
        let imageStems = Set(images.map { ($0 as NSString).deletingPathExtension })
        for name in names where !imageSet.contains(name) {
            let file = folder.appending(name)
            if file.pathExtension == "yaml" {
                let target = file.stem
                if !imageSet.contains(target) && !imageStems.contains(target) {
                    diagnostics.append(.warning(.photoSidecarWithoutPhoto(target), at: file.location()))
                }
            } else {
                diagnostics.append(.warning(
                    .invalidValue(key: "photos", reason: "'\(name)' is not a JPEG, PNG or WebP photo and is ignored"),
                    at: file.location()))
            }
        }
        // A photo's name without its extension becomes its page's address: two photos may not share it.
        var stems: [String: String] = [:]
        return images.compactMap { name in
            let file = folder.appending(name)
            if let first = stems[file.stem] {
                diagnostics.append(.warning(.photoSkipped(reason: "'\(first)' in the same folder has the same name; "
                    + "rename one, since the name becomes the photo's address"), at: file.location()))
                return nil
            }
            stems[file.stem] = name
            let sidecar = [folder.appending(name + ".yaml"), folder.appending(file.stem + ".yaml")]
                .first { TextFile.exists($0.absolutePath) }
            return loadPhoto(file, sidecar: sidecar, diagnostics: &diagnostics)
        }
    }

    private func loadPhoto(_ file: SourceFile, sidecar: SourceFile?, diagnostics: inout [Diagnostic]) -> Photo {
        guard let sidecar, let text = TextFile.read(sidecar, diagnostics: &diagnostics),
              let yaml = YAMLMap.parse(text, file: sidecar, expected: "photo details", diagnostics: &diagnostics)
        else {
            return Photo(file: file, sidecar: nil, id: nil, caption: nil, author: nil, date: nil, credit: nil, license: nil,
                         showsLocation: false)
        }
        yaml.warnUnknownKeys(known: CommunityFiles.photoKeys, diagnostics: &diagnostics)
        return Photo(
            file: file,
            sidecar: sidecar,
            id: yaml.string("id", diagnostics: &diagnostics),
            caption: yaml.string("caption", diagnostics: &diagnostics),
            author: yaml.string("author", diagnostics: &diagnostics),
            date: yaml.date("date", diagnostics: &diagnostics),
            credit: yaml.string("credit", diagnostics: &diagnostics),
            license: yaml.string("license", diagnostics: &diagnostics),
            showsLocation: yaml.bool("location", diagnostics: &diagnostics) ?? false
        )
    }
}
