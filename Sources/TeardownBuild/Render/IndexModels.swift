import TeardownContent

// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.
// Each model is declared once: the build makes its template fields (Plugins/TemplateFields).

/// A part in the A-Z index or on a tag page: its name, and the machine it belongs to.
package struct PartEntryModel: Sendable {
    package let name: String
    package let url: String
    package let machine: LinkModel
    /// The part drawn small over its faded machine, beside its name: where it sits.
    package let thumbnail: PartThumbnailModel
}

package struct PartThumbnailModel: Sendable {
    package let backdrop: BackdropModel
    package let layer: StackLayerModel
    /// The stack's place in the thumbnail's square window (`StackLayout.window(around:)`).
    package let window: String
}

/// The parts under one letter, on the A-Z index's own page.
package struct PartGroupModel: Sendable {
    package let label: String
    package let url: String
    package let parts: [PartEntryModel]
}

/// One tab of the card file.
package struct LetterTabModel: Sendable {
    package let label: String
    /// nil for a letter without parts, shown but not linked.
    package let url: String?
    package let current: Bool
    package let count: Int
}

package struct LetterCountModel: Sendable {
    package let label: String
    package let url: String
    /// "112 parts".
    package let count: String
}

/// The A-Z index: its tabs, and the parts of one letter (none on the index's own page).
package struct PartsIndexModel: Sendable {
    package let title: String
    /// The way back to the index's own page, on a letter's page.
    package let index: String?
    /// Every part under its letter, on the index's own page of a catalog small enough to list.
    package let groups: [PartGroupModel]
    /// Each letter with parts and how many, on the index's own page of a catalog too large to list.
    package let letterCounts: [LetterCountModel]
    package let hasLetterCounts: Bool
    package let tabs: [LetterTabModel]
    package let parts: [PartEntryModel]
    package let hasParts: Bool
    package let count: String
    package let pagination: PaginationModel?
}

package struct TagLinkModel: Sendable {
    package let name: String
    package let url: String
    package let count: String
}

package struct TagsModel: Sendable {
    package let tags: [TagLinkModel]
    package let hasTags: Bool
}

/// The machines and parts of one tag.
package struct TagPageModel: Sendable {
    package let name: String
    package let machines: [MachineCardModel]
    package let hasMachines: Bool
    package let parts: [PartEntryModel]
    package let hasParts: Bool
    package let all: String
    package let pagination: PaginationModel?
}

package struct CollectionPageModel: Sendable {
    package let title: String
    package let description: String
    package let machines: [MachineCardModel]
    package let hasMachines: Bool
    package let pagination: PaginationModel?
}
