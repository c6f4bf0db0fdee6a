import TeardownContent

// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.
// Each model is declared once: the build makes its template fields (Plugins/TemplateFields).

package struct LinkModel: Sendable {
    package let title: String
    package let url: String
}

package struct StackLayerModel: Sendable {
    package let name: String
    package let url: String
    package let z: Int
    /// CSS box as percentages of the canvas, so the stack scales with its container.
    package let left: String
    package let top: String
    package let width: String
    package let height: String
    /// The part whose page shows this stack; the others are drawn faded around it.
    package let current: Bool
}

/// The assembled machine: its layer images stacked by z on a canvas.
package struct StackModel: Sendable {
    package let name: String
    package let width: Int
    package let height: Int
    package let layers: [StackLayerModel]
}

/// The assembled machine as one element: its layers are that element's CSS backgrounds.
package struct BackdropModel: Sendable {
    package let name: String
    package let width: Int
    package let height: Int
    /// CSS declarations for the `style` attribute.
    package let style: String
}

package struct MachineCardModel: Sendable {
    package let name: String
    package let url: String
    package let summary: String
    package let tags: [LinkModel]
    package let partCount: String
    /// Left out on tag and collection pages (`PageRenderer.card`).
    package let commentCount: String?
    package let photoCount: String?
    /// The cover photo or the cover composed from the layers; the backdrop when there is none.
    package let cover: PictureModel?
    /// Made only when a template reads it: it names every layer of the machine, and the default
    /// card shows it only for a machine without a cover, while tag and collection pages hold a
    /// card for every machine they list.
    package let backdrop: @Sendable () -> BackdropModel

    package init(name: String, url: String, summary: String, tags: [LinkModel], partCount: String, commentCount: String?,
         photoCount: String?, cover: PictureModel?, backdrop: @autoclosure @escaping @Sendable () -> BackdropModel) {
        self.name = name
        self.url = url
        self.summary = summary
        self.tags = tags
        self.partCount = partCount
        self.commentCount = commentCount
        self.photoCount = photoCount
        self.cover = cover
        self.backdrop = backdrop
    }
}

package struct CatalogModel: Sendable {
    /// site.yaml's description, shown under the site's name; empty when it has none.
    package let description: String
    package let machines: [MachineCardModel]
    package let hasMachines: Bool
    /// site.yaml's collections.
    package let collections: [CollectionLinkModel]
    package let pagination: PaginationModel?
}

package struct CollectionLinkModel: Sendable {
    package let title: String
    package let url: String
    package let description: String
    package let count: String
}

package struct EntryModel: Sendable {
    package let author: String
    package let date: String
    package let dateTime: String
    package let html: String
    package let isDesigner: Bool
    /// The entry's id, which feeds link to; nil for the designer's description.
    package let anchor: String?
}

package struct PaginationModel: Sendable {
    package struct PageLink: Sendable {
        package let number: Int
        package let url: String
        package let current: Bool
        /// Pages are left out before this one (the bar shows "…").
        package let gapBefore: Bool
    }
    package let pages: [PageLink]
    package let previous: String?
    package let next: String?
}
