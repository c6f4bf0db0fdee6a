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
    /// The site-wide photo gallery.
    let photos: String
    /// The theme's script: the lightbox.
    let script: String
    /// The image a shared link previews with, as an absolute URL.
    let image: SharingImageModel?
}

struct SharingImageModel: Sendable {
    let url: String
    let width: Int
    let height: Int
}

/// One image in several widths and two formats, for `<picture>` with `srcset` and `sizes`.
struct PictureModel: Sendable {
    /// "a-320.webp 320w, a-640.webp 640w"
    let webp: String
    let jpeg: String
    /// The JPEG for browsers without srcset, and its size (which gives the aspect ratio).
    let src: String
    let width: Int
    let height: Int
    let sizes: String
    let alt: String
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
    /// The cover photo or the cover composed from the layers; the backdrop when there is none.
    let cover: PictureModel?
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

/// A photo in a gallery: a link to its page, which the lightbox opens in place.
struct PhotoModel: Sendable {
    let url: String
    let picture: PictureModel
    /// The widest WebP and its size, for the lightbox.
    let large: String
    let largeWidth: Int
    let largeHeight: Int
    let caption: String?
    let credit: String?
    let license: String?
    let date: String?
}

struct LocationModel: Sendable {
    /// "48.85840° N, 2.29448° E"
    let text: String
    let map: String
}

struct PhotoPageModel: Sendable {
    let title: String
    let picture: PictureModel
    let large: String
    let caption: String?
    let author: String?
    let credit: String?
    let license: String?
    let date: String?
    let dateTime: String?
    let taken: String?
    let camera: String?
    let location: LocationModel?
    let machine: LinkModel
    let part: LinkModel?
    let gallery: LinkModel
    let download: LinkModel
    let previous: LinkModel?
    let next: LinkModel?
}

struct GalleryPageModel: Sendable {
    let title: String
    let machine: LinkModel?
    let part: LinkModel?
    let photos: [PhotoModel]
    let hasPhotos: Bool
    let count: String
    let pagination: PaginationModel?
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
    /// The gallery of the machine and all its parts, when there is a photo.
    let gallery: LinkModel?
    /// machine.json, for the interactive view.
    let data: String
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
    let gallery: LinkModel?
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
