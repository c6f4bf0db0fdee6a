import TeardownContent

// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.
// Each model is declared once: the build makes its template fields (Plugins/TemplateFields).

package struct DiscussionModel: Sendable {
    package let entries: [EntryModel]
    package let hasEntries: Bool
    /// Whether anyone but the designer has written: the designer's entry is not a comment.
    package let hasComments: Bool
    /// "3 comments", or nil when there are none (a heading saying "0 comments" above the
    /// designer's entry read as a contradiction).
    package let commentCount: String?
    package let pagination: PaginationModel?
}

/// A photo in a gallery: a link to its page, which the lightbox opens in place.
package struct PhotoModel: Sendable {
    package let url: String
    package let picture: PictureModel
    /// The widest WebP and its size, for the lightbox.
    package let large: String
    package let largeWidth: Int
    package let largeHeight: Int
    package let caption: String?
    package let credit: String?
    package let license: String?
    package let date: String?
}

package struct LocationModel: Sendable {
    /// "48.85840° N, 2.29448° E"
    package let text: String
    package let map: String
}

package struct PhotoPageModel: Sendable {
    package let title: String
    package let picture: PictureModel
    package let large: String
    package let caption: String?
    package let author: String?
    package let credit: String?
    package let license: String?
    package let date: String?
    package let dateTime: String?
    package let taken: String?
    package let camera: String?
    package let location: LocationModel?
    package let machine: LinkModel
    package let part: LinkModel?
    package let gallery: LinkModel
    package let download: LinkModel
    package let previous: LinkModel?
    package let next: LinkModel?
}

package struct GalleryPageModel: Sendable {
    package let title: String
    package let machine: LinkModel?
    package let part: LinkModel?
    package let photos: [PhotoModel]
    package let hasPhotos: Bool
    package let count: String
    package let pagination: PaginationModel?
}

package struct PartLinkModel: Sendable {
    package let name: String
    package let url: String
    /// "2 comments, 1 photo", leaving out what is none; nil when the part has neither (a
    /// list of parts was four columns of "0 comments, 0 photos").
    package let counts: String?
}

package struct SpecModel: Sendable {
    package let label: String
    /// As written in part.yaml.
    package let value: String
    /// "decimal" or "binary" for data sizes.
    package let note: String?
    package let conversions: [SpecConversionModel]
}

package struct SpecConversionModel: Sendable {
    /// "=" when the shown number is exact, "≈" when it is rounded.
    package let relation: String
    package let text: String
    package let note: String?
    /// "metric" or "imperial", which the unit switch shows or hides; nil for the others.
    package let system: String?
}

package struct MachinePageModel: Sendable {
    package let name: String
    /// The title search lists a later page of the discussion under, so that it is not a second
    /// result named like the machine; nil on the first page.
    package let searchTitle: String?
    package let summary: String
    package let designer: String?
    package let license: String?
    package let updated: String?
    package let tags: [LinkModel]
    package let stack: StackModel
    package let parts: [PartLinkModel]
    package let discussion: DiscussionModel
    package let photos: [PhotoModel]
    package let hasPhotos: Bool
    /// The gallery of the machine and all its parts, when there is a photo.
    package let gallery: LinkModel?
    /// machine.json, for the interactive view.
    package let data: String
    /// The bundle as a .zip, with its size in the title.
    package let download: LinkModel?
    /// Its comments as a .zip, when it has any.
    package let commentsDownload: LinkModel?
    /// The machine's Atom feed.
    package let feed: String
    /// The machine's own manual, when it has one.
    package let manual: LinkModel?
    package let intake: IntakeFormModel?
}

/// The "Post a comment" and "Add a photo" forms, when site.yaml sets intake_url.
package struct IntakeFormModel: Sendable {
    package let commentAction: String
    package let photoAction: String
    package let machine: String
    package let part: String?
    /// This page's address, for the thank-you page's link back.
    package let back: String
    package let authorMin: Int
    package let authorMax: Int
    package let commentMin: Int
    package let commentMax: Int
    /// "10 MB"
    package let photoMax: String
    /// A moderator reads submissions first.
    package let held: Bool
}

package struct PartPageModel: Sendable {
    package let name: String
    /// A later page of the discussion is its own search result, titled as such.
    package let searchTitle: String?
    package let machine: LinkModel
    /// The rest of the machine, drawn faded behind this part's layer.
    package let backdrop: BackdropModel
    package let layer: StackLayerModel
    package let specs: [SpecModel]
    package let hasSpecs: Bool
    /// Some conversion is metric or imperial, so the metric/imperial switch has something to do.
    package let unitSwitch: Bool
    package let tags: [LinkModel]
    package let discussion: DiscussionModel
    package let photos: [PhotoModel]
    package let hasPhotos: Bool
    package let gallery: LinkModel?
    package let intake: IntakeFormModel?
}
