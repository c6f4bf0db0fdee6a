import Foundation
import TeardownBase

/// Reads one machine bundle: machine.yaml, its description, parts and community content.
package struct MachineLoader {
    package static let machineKeys: Set<String> = [
        "name", "summary", "canvas", "tags", "designer", "license", "updated", "cover",
    ]
    package static let partKeys: Set<String> = ["name", "layer", "specs", "tags"]
    package static let layerKeys: Set<String> = ["image", "z", "offset"]

    package let community: CommunityLoader
    package var counters: BuildCounters = .none
    /// site.yaml's `unsafe_html`: descriptions keep all their raw HTML, and nothing is warned of.
    package var trustsHTML = false

    /// `stored` offers parts as an earlier load left them, for the folders that did not change
    /// since (`ContentCache.storedParts`); they are taken when the canvas is the one they were read with.
    package func load(_ folder: SourceFile, stored: ContentCache.StoredParts? = nil, diagnostics: inout [Diagnostic]) -> Machine? {
        let slug = folder.name
        guard let (yaml, source) = openBundleFile(folder, "machine.yaml", expected: "machine details", known: Self.machineKeys,
                                                  diagnostics: &diagnostics)
        else { return nil }
        let name = yaml.string("name", required: true, diagnostics: &diagnostics)
        let canvas = loadCanvas(yaml, diagnostics: &diagnostics)
        let summary = yaml.string("summary", diagnostics: &diagnostics) ?? ""
        let tags = yaml.stringList("tags", diagnostics: &diagnostics)
        let designer = yaml.string("designer", diagnostics: &diagnostics)
        let license = yaml.string("license", diagnostics: &diagnostics)
        let updated = yaml.date("updated", diagnostics: &diagnostics)
        let cover = loadCover(yaml, folder: folder, diagnostics: &diagnostics)
        let description = loadDescription(folder, diagnostics: &diagnostics)
        let communityContent = community.load(in: folder, diagnostics: &diagnostics)

        let partsFolder = folder.appending("parts")
        let partNames = TextFile.list(partsFolder, diagnostics: &diagnostics).filter(\.isDirectory).map(\.name)
        TextFile.reportCaseTwins(partNames, in: partsFolder, diagnostics: &diagnostics)
        // Parts are read on all cores: a sync of one comment reads its machine again, all its
        // parts, on a core of its own while the others would wait.
        let stored = stored?.canvas == canvas ? stored?.parts ?? [:] : [:]
        counters.count(.partsRead, by: partNames.count(where: { stored[$0] == nil }))
        let loaded = ParallelMap.map(partNames) { name -> (part: Part?, diagnostics: [Diagnostic]) in
            if let (part, found) = stored[name] { return (part, found) }
            var found: [Diagnostic] = []
            let part = loadPart(partsFolder.appending(name), canvas: canvas, diagnostics: &found)
            return (part, found)
        }
        diagnostics += loaded.flatMap(\.diagnostics)
        let parts = loaded.compactMap(\.part)
            // Equal z is common for parts that do not overlap; the folder name breaks the tie.
            .sorted { ($0.layer.z, $0.slug) < ($1.layer.z, $1.slug) }
        guard let name, let canvas else { return nil }
        return Machine(
            slug: slug, folder: folder, source: source, name: name, summary: summary, canvas: canvas, tags: tags,
            designer: designer, license: license, updated: updated, cover: cover, parts: parts,
            description: description, community: communityContent,
            manual: ManualLoader().load(folder.appending("manual"), diagnostics: &diagnostics)
        )
    }

    /// The YAML file that defines a machine or part folder, after checking the folder's name.
    private func openBundleFile(_ folder: SourceFile, _ name: String, expected: String, known: Set<String>,
                                diagnostics: inout [Diagnostic]) -> (YAMLMap, ContentDigest)? {
        guard TextFile.isValidName(folder.name) else {
            diagnostics.append(.error(.invalidName(folder.name), at: folder.location()))
            return nil
        }
        let file = folder.appending(name)
        guard TextFile.exists(file.absolutePath) else {
            diagnostics.append(.error(.missingFile(name), at: folder.location()))
            return nil
        }
        guard let text = TextFile.read(file, diagnostics: &diagnostics),
              let yaml = YAMLMap.parse(text, file: file, expected: expected, diagnostics: &diagnostics)
        else { return nil }
        yaml.warnUnknownKeys(known: known, diagnostics: &diagnostics)
        return (yaml, ContentDigest(of: text))
    }

    private func loadCanvas(_ yaml: YAMLMap, diagnostics: inout [Diagnostic]) -> PixelSize? {
        guard let canvas = yaml.map("canvas", required: true, diagnostics: &diagnostics) else { return nil }
        canvas.warnUnknownKeys(known: ["width", "height"], diagnostics: &diagnostics)
        let width = canvas.int("width", required: true, diagnostics: &diagnostics)
        let height = canvas.int("height", required: true, diagnostics: &diagnostics)
        guard let width, let height else { return nil }
        guard width > 0, height > 0 else {
            diagnostics.append(.error(.invalidValue(key: "canvas", reason: "width and height must be positive"),
                                      at: canvas.location))
            return nil
        }
        return PixelSize(width: width, height: height)
    }

    /// A photo file in the machine folder; a missing one is an error, like a missing layer.
    private func loadCover(_ yaml: YAMLMap, folder: SourceFile, diagnostics: inout [Diagnostic]) -> SourceFile? {
        guard let name = yaml.string("cover", diagnostics: &diagnostics) else { return nil }
        guard !name.contains("/"), !name.contains("\\"), !name.hasPrefix(".") else {
            diagnostics.append(.error(.invalidValue(key: "cover", reason: "must be a file name in the machine folder"),
                                      at: yaml.location(of: "cover")))
            return nil
        }
        let file = folder.appending(name)
        guard !FileSystem.isSymbolicLink(file.absolutePath) else {
            diagnostics.append(.error(.unreadableImage(name, reason: Problem.symbolicLinkReason), at: yaml.location(of: "cover")))
            return nil
        }
        guard TextFile.exists(file.absolutePath) else {
            diagnostics.append(.error(.missingFile(name), at: yaml.location(of: "cover")))
            return nil
        }
        return file
    }

    private func loadDescription(_ folder: SourceFile, diagnostics: inout [Diagnostic]) -> MarkdownSource? {
        let file = folder.appending("description.md")
        // lstat, so that a link, even a broken one, is reported rather than taken for no description.
        guard FileSystem.exists(file.absolutePath), let text = TextFile.read(file, diagnostics: &diagnostics) else {
            return nil
        }
        let source = MarkdownSource(text: text, file: file, firstLine: 1)
        if !trustsHTML { source.warnLeftOutHTML(diagnostics: &diagnostics) }
        return source
    }

    private func loadPart(_ folder: SourceFile, canvas: PixelSize?, diagnostics: inout [Diagnostic]) -> Part? {
        let slug = folder.name
        guard let (yaml, source) = openBundleFile(folder, "part.yaml", expected: "part details", known: Self.partKeys,
                                                  diagnostics: &diagnostics)
        else { return nil }
        let name = yaml.string("name", required: true, diagnostics: &diagnostics)
        let layer = loadLayer(yaml, folder: folder, canvas: canvas, diagnostics: &diagnostics)
        let specs = loadSpecs(yaml, diagnostics: &diagnostics)
        let tags = yaml.stringList("tags", diagnostics: &diagnostics)
        let description = loadDescription(folder, diagnostics: &diagnostics)
        let communityContent = community.load(in: folder, diagnostics: &diagnostics)
        guard let name, let layer else { return nil }
        return Part(slug: slug, source: source, name: name, layer: layer, specs: specs, tags: tags,
                    description: description, community: communityContent)
    }

    private func loadLayer(_ yaml: YAMLMap, folder: SourceFile, canvas: PixelSize?,
                           diagnostics: inout [Diagnostic]) -> Layer? {
        guard let layer = yaml.map("layer", required: true, diagnostics: &diagnostics) else { return nil }
        layer.warnUnknownKeys(known: Self.layerKeys, diagnostics: &diagnostics)
        let z = layer.int("z", diagnostics: &diagnostics) ?? 0
        guard let imageName = layer.string("image", required: true, diagnostics: &diagnostics) else { return nil }
        guard !imageName.contains("/"), !imageName.contains("\\"), !imageName.hasPrefix(".") else {
            diagnostics.append(.error(.invalidValue(key: "image", reason: "must be a file name in the part folder"),
                                      at: layer.location(of: "image")))
            return nil
        }
        let image = folder.appending(imageName)
        guard !FileSystem.isSymbolicLink(image.absolutePath) else {
            diagnostics.append(.error(.unreadableImage(imageName, reason: Problem.symbolicLinkReason), at: layer.location(of: "image")))
            return nil
        }
        guard TextFile.exists(image.absolutePath) else {
            // A slip of the name is the likelier mistake than a file left out: the folder's images are offered.
            let images = FileSystem.names(in: folder.absolutePath).filter {
                ImageHeader.supportedExtensions.contains(($0 as NSString).pathExtension.lowercased())
            }
            diagnostics.append(.error(.missingLayerImage(imageName, closest: KeySuggestion.closest(to: imageName, in: images)),
                                      at: layer.location(of: "image")))
            return nil
        }
        let natural: PixelSize
        do {
            guard ImageHeader.supportedExtensions.contains(image.pathExtension) else { throw ImageHeader.Failure.unsupportedFormat }
            let data = try Data(contentsOf: URL(fileURLWithPath: image.absolutePath), options: .mappedIfSafe)
            natural = try ImageHeader.size(of: data, pathExtension: image.pathExtension)
        } catch {
            let reason = (error as? ImageHeader.Failure).map {
                switch $0 {
                case .unsupportedFormat: "not a PNG, JPEG, WebP, GIF or SVG image"
                case .truncated: "the file is truncated"
                case .noSize: "its size cannot be read"
                }
            } ?? "\(error.localizedDescription)"
            diagnostics.append(.error(.unreadableImage(imageName, reason: reason), at: layer.location(of: "image")))
            return nil
        }
        guard let offset = layer.map("offset", diagnostics: &diagnostics) else {
            // Without an offset the image covers the whole canvas, whatever its resolution.
            guard let canvas else { return nil }
            return Layer(image: image, z: z, x: 0, y: 0, size: canvas)
        }
        offset.warnUnknownKeys(known: ["x", "y"], diagnostics: &diagnostics)
        let x = offset.int("x", diagnostics: &diagnostics) ?? 0
        let y = offset.int("y", diagnostics: &diagnostics) ?? 0
        return Layer(image: image, z: z, x: x, y: y, size: natural)
    }

    private func loadSpecs(_ yaml: YAMLMap, diagnostics: inout [Diagnostic]) -> [Spec] {
        guard let specs = yaml.map("specs", diagnostics: &diagnostics) else { return [] }
        return specs.entries.compactMap { entry in
            let location = YAMLMap.location(entry.value.mark ?? entry.keyMark, specs.file, specs.lineOffset)
            guard let scalar = entry.value.scalar else {
                diagnostics.append(.error(.wrongType(key: entry.key, expected: "text such as \"4.7 GB\""), at: location))
                return nil
            }
            let value = entry.value.null == nil ? scalar.string : ""
            switch SpecParser.read(value) {
            case .success(let reading):
                if let problem = SpecLabel.problem(label: entry.key, value: value, reading: reading) {
                    diagnostics.append(.warning(problem, at: location))
                    return Spec(label: entry.key, value: value, reading: .text)
                }
                return Spec(label: entry.key, value: value, reading: reading)
            case .failure(let problem):
                // The page still shows the value as written; only the conversions are lost.
                diagnostics.append(.warning(.specValue(label: entry.key, value: value, reason: problem.reason), at: location))
                return Spec(label: entry.key, value: value, reading: .text)
            }
        }
    }
}
