// Explicit, already-resolved data for templates: URLs are relative to the page being
// rendered, Markdown is HTML, numbers are formatted. Templates never see domain types.

/// What the base layout needs on every page.
struct LayoutModel: Sendable {
    let siteTitle: String
    let language: String
    let pageTitle: String
    let description: String
    let canonical: String
    let home: String
    let help: String
    let stylesheet: String
    let generator: String
    /// site.yaml's bug_report_url, when given.
    let bugReport: String?
}

/// A page: the layout's data and the page's own.
struct PageModel<Body: Sendable>: Sendable {
    let site: LayoutModel
    let page: Body
}

struct LinkModel: Sendable {
    let title: String
    let url: String
}

struct StackLayerModel: Sendable {
    let name: String
    let url: String
    let z: Int
    /// CSS box as percentages of the canvas, so the stack scales with its container.
    let left: String
    let top: String
    let width: String
    let height: String
    /// The part whose page shows this stack; the others are drawn faded around it.
    let current: Bool
}

/// The assembled machine: its layer images stacked by z on a canvas.
struct StackModel: Sendable {
    let name: String
    let width: Int
    let height: Int
    let layers: [StackLayerModel]
}

/// The assembled machine as one element: its layers are that element's CSS backgrounds.
struct BackdropModel: Sendable {
    let name: String
    let width: Int
    let height: Int
    /// CSS declarations for the `style` attribute.
    let style: String
}

struct MachineCardModel: Sendable {
    let name: String
    let url: String
    let summary: String
    let tags: [String]
    let partCount: String
    let commentCount: String
    let photoCount: String
    let backdrop: BackdropModel
}

struct CatalogModel: Sendable {
    let machines: [MachineCardModel]
    let hasMachines: Bool
}

struct EntryModel: Sendable {
    let author: String
    let date: String
    let dateTime: String
    let html: String
    let isDesigner: Bool
}

struct PaginationModel: Sendable {
    struct PageLink: Sendable {
        let number: Int
        let url: String
        let current: Bool
    }
    let pages: [PageLink]
    let previous: String?
    let next: String?
}

struct DiscussionModel: Sendable {
    let entries: [EntryModel]
    let hasEntries: Bool
    let commentCount: String
    let pagination: PaginationModel?
}

struct PhotoModel: Sendable {
    let url: String
    let alt: String
    let caption: String?
    let credit: String?
    let license: String?
    let date: String?
}

struct PartLinkModel: Sendable {
    let name: String
    let url: String
    let counts: String
}

struct SpecModel: Sendable {
    let label: String
    let value: String
}

struct MachinePageModel: Sendable {
    let name: String
    let summary: String
    let designer: String?
    let license: String?
    let updated: String?
    let tags: [String]
    let stack: StackModel
    let parts: [PartLinkModel]
    let discussion: DiscussionModel
    let photos: [PhotoModel]
    let hasPhotos: Bool
}

struct PartPageModel: Sendable {
    let name: String
    let machine: LinkModel
    /// The rest of the machine, drawn faded behind this part's layer.
    let backdrop: BackdropModel
    let layer: StackLayerModel
    let specs: [SpecModel]
    let hasSpecs: Bool
    let tags: [String]
    let discussion: DiscussionModel
    let photos: [PhotoModel]
    let hasPhotos: Bool
}

struct ManualPageModel: Sendable {
    struct NavItem: Sendable {
        let title: String
        let url: String
        let current: Bool
    }
    let title: String
    let html: String
    let navigation: [NavItem]
    let previous: LinkModel?
    let next: LinkModel?
}

struct NotFoundModel: Sendable {
    let home: String
}
