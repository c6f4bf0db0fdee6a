import TeardownBase
import TeardownContent

/// A photo's published files, in one cache entry: its responsive variants and its stripped,
/// upright original.
package struct ProcessedPhoto: Sendable, Hashable, Codable {
    package struct Variant: Sendable, Hashable, Codable {
        package let width: Int
        package let height: Int
        /// File names in the cache entry.
        package let webp: String
        package let jpeg: String
    }

    /// The cache entry holding the files; also names the result in fingerprints.
    package let key: String
    /// Size once upright.
    package let width: Int
    package let height: Int
    /// Narrowest first.
    package let variants: [Variant]
    /// The upright original without metadata, when there is one to download.
    package let original: String?
    package let format: ImageFormat
    package let metadata: PhotoMetadata
}

/// A layer as the machine view uses it: where it is opaque, and its optimized copy.
package struct ProcessedLayer: Sendable, Hashable, Codable {
    package let key: String
    /// The copy published in the cache entry: an optimized WebP, or a sanitised SVG
    /// (`SVGSanitizer`); nil in entries of earlier versions, when an SVG was published as it was.
    package let published: String?
    /// Nil for a layer with no opaque pixel at all.
    package let mask: HitMask?
}

/// What the image stage made of a site's images, all found in the cache.
package struct ProcessedImages: Sendable {
    /// The cache's entries folder.
    package let entries: String
    /// The images of the bundles this build looked at, by the source file's absolute path.
    private let madePhotos: [String: ProcessedPhoto]
    private let madeLayers: [String: ProcessedLayer]
    /// A cover made of the machine's layers, by machine slug, when machine.yaml names none.
    private let madeCovers: [String: ProcessedPhoto]
    /// Every machine's layers composed into one image, by slug: its part pages draw the
    /// machine from it, so a part page's size does not grow with the machine's part count.
    private let madeComposed: [String: ProcessedPhoto]
    /// The other bundles', as the image index holds them.
    private let carried: CarriedImages?
    /// Photos that could not be used (warnings) and layers that could not (errors).
    package let diagnostics: [Diagnostic]
    /// Images made by this build rather than found in the cache.
    package let processed: Int
    /// The libvips the images are made with (`VipsVersion`).
    package let vipsVersion: String
    /// The photos (by source path) that could not be published: a page, a gallery or a count
    /// leaves them out.
    package let failingPhotos: Set<String>

    package init(entries: String, photos: [String: ProcessedPhoto], layers: [String: ProcessedLayer],
                 covers: [String: ProcessedPhoto], composed: [String: ProcessedPhoto], carried: CarriedImages? = nil,
                 diagnostics: [Diagnostic], processed: Int, vipsVersion: String, failingPhotos: Set<String> = []) {
        self.entries = entries
        madePhotos = photos
        madeLayers = layers
        madeCovers = covers
        madeComposed = composed
        self.carried = carried
        self.diagnostics = diagnostics
        self.processed = processed
        self.vipsVersion = vipsVersion
        self.failingPhotos = failingPhotos
    }

    package func path(_ key: String, _ name: String) -> String { entries + "/" + key + "/" + name }

    /// The photo whose source is at `path` (absolute), as published; nil when it could not be.
    package func photo(_ path: String) -> ProcessedPhoto? {
        if let photo = madePhotos[path] { return photo }
        if case .photo(let photo)? = carried?.outcome(path) { return photo }
        return nil
    }

    /// The layer whose image is at `path` (absolute).
    package func layer(_ path: String) -> ProcessedLayer? {
        if let layer = madeLayers[path] { return layer }
        if case .layer(let layer)? = carried?.outcome(path) { return layer }
        return nil
    }

    /// The machine's cover photo, or else the cover composed from its layers.
    package func cover(of machine: Machine) -> ProcessedPhoto? {
        cover(slug: machine.slug, named: machine.cover)
    }

    /// The cover of the machine `slug` whose machine.yaml names `file`, or none.
    package func cover(slug: String, named file: SourceFile?) -> ProcessedPhoto? {
        file.flatMap { photo($0.absolutePath) } ?? composedCover(slug)
    }

    private func composedCover(_ slug: String) -> ProcessedPhoto? {
        madeCovers[slug] ?? carried?.composedCover(slug: slug)
    }

    /// The machine's layers composed into one image, its largest WebP as the cached file, and
    /// whether it is the machine's cover (then it is published as the cover already).
    package func composedStack(of machine: some MachineAddressable) -> (width: Int, file: String, isCover: Bool)? {
        guard let stack = madeComposed[machine.slug] ?? carried?.composed(slug: machine.slug), let largest = stack.variants.last
        else { return nil }
        return (largest.width, path(stack.key, largest.webp), composedCover(machine.slug) != nil)
    }

    /// Whether a layer is published as an optimized copy (which changes its URL) rather than as it is.
    package func isOptimized(_ layer: Layer) -> Bool { self.layer(layer.image.absolutePath)?.published != nil }
}
