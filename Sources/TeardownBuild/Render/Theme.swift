import Foundation
import TeardownThemes
import TeardownBase
import TeardownContent

/// A theme's compiled templates and asset files, after a site's overrides.
public struct Theme: Sendable {
    /// Templates every theme must provide; the build renders pages with them.
    public static let requiredTemplates = ["catalog", "machine", "part", "gallery", "photo", "manual", "manual-print", "search", "not-found",
                                             "parts", "tags-index", "tag", "collection"]

    package let templates: [String: [TemplateNode]]
    /// Output path under assets/ to the file that provides it.
    public let assets: [String: SourceFile]
    /// For each template, a digest of its text and of every partial and parent it reaches,
    /// so a changed template re-renders exactly the pages that use it.
    package let templateDigests: [String: ContentDigest]

    package func digest(of template: String) -> ContentDigest {
        templateDigests[template] ?? ContentDigest(high: 0, low: 0)
    }

    /// Renders the named template; the template is known to exist after `load`.
    package func render(_ template: String, _ model: some TemplateRepresentable) -> String {
        TemplateRenderer.render(template, model.templateValue, templates: templates, capacity: 16_384)
    }

    /// Loads the theme `name`: the built-in default theme, then the site's Themes/default, then
    /// the site's Themes/<name>, each file overriding the one at the same path before it.
    public static func load(siteRoot: String, config: SiteConfig, diagnostics: inout [Diagnostic]) -> Theme? {
        let name = config.theme
        var layers: [SourceFile] = []
        if let builtIn = DefaultTheme.directory {
            layers.append(SourceFile(absolutePath: builtIn.path, displayPath: builtIn.path))
        }
        for candidate in name == "default" ? ["default"] : ["default", name] {
            let folder = SourceFile(root: siteRoot, relative: "Themes/\(candidate)")
            if TextFile.isDirectory(folder.absolutePath) {
                layers.append(folder)
            } else if candidate != "default" {
                diagnostics.append(.error(.themeNotFound(name), at: config.themeLocation))
                return nil
            }
        }
        guard !layers.isEmpty else {
            diagnostics.append(.error(.themeNotFound("default"), at: config.themeLocation))
            return nil
        }
        var templateFiles: [String: SourceFile] = [:]
        var assets: [String: SourceFile] = [:]
        for layer in layers {
            for relative in files(under: layer.appending("templates").absolutePath) where relative.hasSuffix(".mustache") {
                templateFiles[String(relative.dropLast(".mustache".count))] = layer.appending("templates").appending(relative)
            }
            for relative in files(under: layer.appending("assets").absolutePath) {
                assets[relative] = layer.appending("assets").appending(relative)
            }
        }
        return compile(templateFiles, assets: assets, diagnostics: &diagnostics)
    }

    private static func compile(_ files: [String: SourceFile], assets: [String: SourceFile],
                                diagnostics: inout [Diagnostic]) -> Theme? {
        var templates: [String: [TemplateNode]] = [:]
        var texts: [String: String] = [:]
        var references: [String: Set<String>] = [:]
        var failed = false
        for (name, file) in files.sorted(by: { $0.key < $1.key }) {
            guard let text = TextFile.read(file, diagnostics: &diagnostics) else { failed = true; continue }
            let compiled: CompiledTemplate
            do {
                compiled = try TemplateParser.compile(text)
            } catch {
                failed = true
                diagnostics.append(.error(.templateSyntax(error.message), at: file.location(line: error.line, column: error.column)))
                continue
            }
            templates[name] = compiled.nodes
            texts[name] = text
            references[name] = Set(compiled.references.map(\.name))
            // A missing partial would render as nothing; a theme author wants to hear about it.
            for reference in compiled.references where files[reference.name] == nil {
                failed = true
                diagnostics.append(.error(.missingPartial(reference.name),
                                          at: file.location(line: reference.line, column: reference.column)))
            }
        }
        for name in requiredTemplates where files[name] == nil {
            failed = true
            diagnostics.append(.error(.missingTemplate(name), at: SourceLocation("Themes")))
        }
        guard !failed else { return nil }
        return Theme(templates: templates, assets: assets,
                     templateDigests: digests(texts, references: references))
    }

    private static func digests(_ texts: [String: String], references: [String: Set<String>]) -> [String: ContentDigest] {
        var result: [String: ContentDigest] = [:]
        for name in texts.keys {
            var reached: Set<String> = [name]
            var pending = [name]
            while let next = pending.popLast() {
                for reference in references[next] ?? [] where reached.insert(reference).inserted {
                    pending.append(reference)
                }
            }
            var fingerprint = Fingerprint()
            for template in reached.sorted() {
                fingerprint.add(template)
                fingerprint.add(texts[template] ?? "")
            }
            result[name] = fingerprint.digest
        }
        return result
    }

    /// Regular files below `folder`, as sorted relative paths.
    private static func files(under folder: String) -> [String] {
        // The walk the input snapshot takes, run on every build: Foundation's enumerator makes a
        // URL and asks for its resource values a file. It stops at a link to a folder, which the enumerator
        // below lists; both take a link to a file as the file.
        var found: [String] = []
        let walked = FileSystem.walk(folder) { path, status in
            if status.isRegularFile { found.append(path) }
        }
        if walked || !FileSystem.exists(folder) { return found.sorted() }
        guard let enumerator = FileManager.default.enumerator(
            at: URL(fileURLWithPath: folder), includingPropertiesForKeys: [.isRegularFileKey],
            options: [.skipsHiddenFiles])
        else { return [] }
        let base = URL(fileURLWithPath: folder).standardizedFileURL.path
        var result: [String] = []
        for case let url as URL in enumerator {
            // A file gone between listing and reading is not part of the theme.
            guard (try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            else { continue }
            let path = url.standardizedFileURL.path
            result.append(String(path.dropFirst(base.count + 1)))
        }
        return result.sorted()
    }
}
