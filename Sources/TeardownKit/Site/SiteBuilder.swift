import Foundation

/// Runs the pipeline: load -> validate -> theme -> plan -> render -> write -> publish.
public struct SiteBuilder: Sendable {
    /// What a build did, for the command line to report.
    public struct Report: Sendable {
        public let pages: Int
        public let files: Int
        public let warnings: [Diagnostic]
        public let output: String
    }

    public let siteRoot: String
    public let output: String
    /// Overrides site.yaml's base_url (canonical links only: page links are relative).
    public let baseURL: String?

    public init(siteRoot: String, output: String? = nil, baseURL: String? = nil) {
        self.siteRoot = siteRoot
        self.output = output ?? (siteRoot as NSString).appendingPathComponent("public")
        self.baseURL = baseURL
    }

    /// Loads and validates the site and its theme, writing nothing.
    public func check() -> [Diagnostic] {
        prepare().diagnostics.sortedByLocation()
    }

    /// Builds the site into the output folder; on any error, the output is left as it was.
    @discardableResult
    public func build() throws(BuildFailure) -> Report {
        let (prepared, diagnostics) = prepare()
        guard let (content, theme) = prepared, !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        let warnings = diagnostics.filter { $0.severity == .warning }.sortedByLocation()
        let plan = SitePlan(content: content, theme: theme)
        var base = baseURL ?? content.config.baseURL
        if !base.hasSuffix("/") { base += "/" }
        let renderer = PageRenderer(content: content, theme: theme, baseURL: base)
        let publisher = Publisher(output: output)
        do {
            try publisher.prepare()
            let writer = OutputWriter(root: publisher.staging)
            try writer.createDirectories(for: plan.pages.map(\.url.outputPath) + plan.copies.map(\.url.outputPath))
            let failures = ParallelMap.map(plan.pages) { entry -> String? in
                let html = renderer.render(entry.page, at: entry.url)
                do { try writer.write(html, to: entry.url.outputPath) } catch { return "\(error)" }
                return nil
            } + ParallelMap.map(plan.copies) { copy -> String? in
                do { try writer.copy(from: copy.source.absolutePath, to: copy.url.outputPath) } catch { return "\(error)" }
                return nil
            }
            if let failure = failures.compactMap({ $0 }).first {
                throw OutputWriter.Failure(path: output, reason: failure)
            }
            try publisher.publish()
        } catch {
            publisher.discard()
            throw BuildFailure(warnings + [.error(.outputFailed(reason: "\(error)"), at: SourceLocation(output))])
        }
        return Report(pages: plan.pages.count, files: plan.copies.count, warnings: warnings, output: output)
    }

    private func prepare() -> (value: (SiteContent, Theme)?, diagnostics: [Diagnostic]) {
        var (content, diagnostics) = ContentLoader(siteRoot: siteRoot).load()
        let theme = Theme.load(siteRoot: siteRoot, config: content.config, diagnostics: &diagnostics)
        guard let theme else { return (nil, diagnostics) }
        return ((content, theme), diagnostics)
    }
}
