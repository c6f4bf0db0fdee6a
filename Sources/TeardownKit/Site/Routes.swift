/// Where each piece of content is published. The only place that knows the URL scheme.
enum Routes {
    static let catalog = URLPath.root
    static let manual = URLPath.page("manual")
    static let notFound = URLPath("/404.html")

    static func machine(_ machine: Machine) -> URLPath { .page("machines", machine.slug) }

    static func part(_ part: Part, of machine: Machine) -> URLPath {
        .page("machines", machine.slug, "parts", part.slug)
    }

    /// Page `number` (1-based) of a discussion whose first page is `base`.
    static func discussion(_ base: URLPath, page number: Int) -> URLPath {
        number <= 1 ? base : URLPath(base.value + "discussion/\(number)/")
    }

    static func layer(_ part: Part, of machine: Machine) -> URLPath {
        URLPath(Routes.machine(machine).value + layerInMachine(part))
    }

    /// A part's layer image relative to its machine's page.
    static func layerInMachine(_ part: Part) -> String {
        String(URLPath.file(["parts", part.slug, part.layer.image.name]).value.dropFirst())
    }

    /// A photo published under the page of the machine or part it belongs to.
    static func photo(_ photo: Photo, under owner: URLPath) -> URLPath {
        URLPath(owner.value + "photos/" + (URLPath.file([photo.file.name]).value.dropFirst()))
    }

    static func manual(_ page: ManualPage) -> URLPath { manual(slug: page.slug) }

    /// The page of the manual file at `slug` ("writing/bundles"; "index" is the folder itself).
    static func manual(slug: String) -> URLPath {
        let components = slug.split(separator: "/").map(String.init)
        let folder = components.last == "index" ? Array(components.dropLast()) : components
        return .page(["manual"] + folder)
    }

    static func asset(_ relative: String) -> URLPath {
        .file(["assets"] + relative.split(separator: "/").map(String.init))
    }
}
