/// A photo's published files, in one cache entry: its responsive variants and its stripped,
/// upright original.
struct ProcessedPhoto: Sendable, Hashable, Codable {
    struct Variant: Sendable, Hashable, Codable {
        let width: Int
        let height: Int
        /// File names in the cache entry.
        let webp: String
        let jpeg: String
    }

    /// The cache entry holding the files; also names the result in fingerprints.
    let key: String
    /// Size once upright.
    let width: Int
    let height: Int
    /// Narrowest first.
    let variants: [Variant]
    /// The upright original without metadata, when there is one to download.
    let original: String?
    let format: ImageFormat
    let metadata: PhotoMetadata
}

/// A layer as the machine view uses it: where it is opaque, and its optimized copy.
struct ProcessedLayer: Sendable, Hashable, Codable {
    let key: String
    /// The copy published in the cache entry: an optimized WebP, or a sanitised SVG
    /// (`SVGSanitizer`); nil in entries of earlier versions, when an SVG was published as it was.
    let published: String?
    /// Nil for a layer with no opaque pixel at all.
    let mask: HitMask?
}

/// What the image stage made of a site's images, all found in the cache.
struct ProcessedImages: Sendable {
    /// The cache's entries folder.
    let entries: String
    /// By the source file's absolute path.
    let photos: [String: ProcessedPhoto]
    let layers: [String: ProcessedLayer]
    /// A cover made of the machine's layers, by machine slug, when machine.yaml names none.
    let covers: [String: ProcessedPhoto]
    /// Every machine's layers composed into one image, by slug: its part pages draw the
    /// machine from it, so a part page's size does not grow with the machine's part count.
    let composed: [String: ProcessedPhoto]
    /// Photos that could not be used (warnings) and layers that could not (errors).
    let diagnostics: [Diagnostic]
    /// Images made by this build rather than found in the cache.
    let processed: Int

    func path(_ key: String, _ name: String) -> String { entries + "/" + key + "/" + name }

    /// The machine's cover photo, or else the cover composed from its layers.
    func cover(of machine: Machine) -> ProcessedPhoto? {
        cover(slug: machine.slug, named: machine.cover)
    }

    /// The cover of the machine `slug` whose machine.yaml names `file`, or none.
    func cover(slug: String, named file: SourceFile?) -> ProcessedPhoto? {
        file.flatMap { photos[$0.absolutePath] } ?? covers[slug]
    }

    /// The machine's layers composed into one image, its largest WebP as the cached file, and
    /// whether it is the machine's cover (then it is published as the cover already).
    func composedStack(of machine: some MachineAddressable) -> (width: Int, file: String, isCover: Bool)? {
        guard let stack = composed[machine.slug], let largest = stack.variants.last else { return nil }
        return (largest.width, path(stack.key, largest.webp), covers[machine.slug] != nil)
    }

    /// Whether a layer is published as an optimized copy (which changes its URL) rather than as it is.
    func isOptimized(_ layer: Layer) -> Bool { layers[layer.image.absolutePath]?.published != nil }
}
