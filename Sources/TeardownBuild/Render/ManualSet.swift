import TeardownBase
import TeardownContent

/// The site's manual and every machine's, rendered once per build.
package struct ManualSet: Sendable {
    package let site: RenderedManual
    package let machines: [Int: RenderedManual]

    /// Renders every manual of `content`, reporting broken links as warnings.
    package init(_ content: SiteContent, diagnostics: inout [Diagnostic]) {
        let markdown = MarkdownRenderer()
        let allowHTML = content.config.unsafeHTML
        site = RenderedManual(content.manual, base: Routes.manual, machine: nil, markdown: markdown, allowHTML: allowHTML,
                              diagnostics: &diagnostics)
        var machines: [Int: RenderedManual] = [:]
        for (index, machine) in content.machines.enumerated() where machine.brief.hasManual {
            machines[index] = RenderedManual(machine.manual, base: Routes.manual(of: machine), machine: index,
                                             markdown: markdown, allowHTML: allowHTML, diagnostics: &diagnostics)
        }
        self.machines = machines
    }

    package subscript(machine: Int?) -> RenderedManual {
        machine.flatMap { machines[$0] } ?? site
    }
}
