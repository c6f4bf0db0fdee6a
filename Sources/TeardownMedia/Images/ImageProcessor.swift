import Foundation
import TeardownBase
import TeardownContent

/// The image stage: every photo, layer and cover of a site, taken from the cache or made now,
/// one image per core.
package struct ImageProcessor: Sendable {
    /// Bumped whenever the processing below changes what it writes, so old entries are not reused.
    package static let pipelineVersion = "1"
    /// Cover widths: a card and a sharing image need no more.
    package static let coverWidths = [320, 640, 1280]

    package let settings: PhotoSettings
    package let maxPixels: Int
    package let cache: ImageCache

    package init(settings: PhotoSettings, maxPixels: Int, cache: ImageCache) {
        self.settings = settings
        self.maxPixels = maxPixels
        self.cache = cache
    }

    /// `signatures` are the bundles' signatures the input snapshot vouches for: a bundle whose
    /// signature and settings are those of the last build keeps its images' keys and outcomes
    /// as the index holds them, without its sources being looked at or a key looked up.
    package func process(_ content: SiteContent, signatures: [String: ContentDigest] = [:],
                 progress: BuildProgress.Handler? = nil) -> ProcessedImages {
        var jobs: [Job] = []
        var bundles: [(name: String, signature: String?, jobs: Range<Int>)] = []
        for machine in content.machines {
            let first = jobs.count
            for photo in machine.head.photos { jobs.append(.photo(photo.file, widths: settings.widths)) }
            if let cover = machine.cover { jobs.append(.photo(cover, widths: Self.coverWidths)) }
            for part in machine.outlines {
                jobs.append(.layer(part.layer))
                for photo in part.photos { jobs.append(.photo(photo.file, widths: settings.widths)) }
            }
            let name = (machine.folder.displayPath as NSString).lastPathComponent
            bundles.append((name, signatures[name]?.description, first..<jobs.count))
        }
        let settingsKey = self.settingsKey
        // Each bundle's stored row; those whose signature vouches for them are taken as they are.
        let rows = bundles.map { cache.stored(bundle: $0.name, settings: settingsKey) }
        let carried = bundles.indices.map { index -> Bool in
            guard let row = rows[index] else { return false }
            return row.holds(signature: bundles[index].signature, paths: jobs[bundles[index].jobs].lazy.map(\.source.absolutePath))
                && cache.hasEntries(row)
        }
        // Each job's key and outcome, set in place: carried bundles' straight from their rows
        // (wrapped in a Result per job and copied twice over, every image of the site went
        // through several copies of its outcome, the larger part of this step in a one-comment sync).
        var hints = [BundleImages.Image?](repeating: nil, count: jobs.count)
        var jobKeys = [String?](repeating: nil, count: jobs.count)
        var outcomes = [ImageCache.Outcome?](repeating: nil, count: jobs.count)
        var resolved = [Bool](repeating: false, count: jobs.count)
        for (index, bundle) in bundles.enumerated() {
            guard let row = rows[index] else { continue }
            for (job, image) in zip(bundle.jobs, row.images) where image.path == jobs[job].source.absolutePath {
                if carried[index], let key = image.key {
                    jobKeys[job] = key
                    outcomes[job] = image.outcome
                    resolved[job] = true
                } else {
                    hints[job] = image
                }
            }
        }
        // The other bundles' keys are worked out on all cores (each reads a source's stat, or
        // its bytes), then looked up, their own stored row first.
        let unknown = jobs.indices.filter { !resolved[$0] }
        cache.prepareSources(for: unknown.count)
        let worked = ParallelMap.map(unknown) { index in Result { () throws(ImageFailure) in try key(of: jobs[index]) } }
        for (index, result) in zip(unknown, worked) {
            switch result {
            case .failure(let failure): outcomes[index] = .failed(failure)
            case .success(let key):
                jobKeys[index] = key
                outcomes[index] = cache.outcome(key, hint: hints[index])
            }
        }
        var missing: [(index: Int, job: Job, key: String)] = []
        // Files with the same bytes and settings share one entry: made once, not by two
        // workers racing to rename their copies into the same place.
        var sharing: [String: [Int]] = [:]
        for index in jobs.indices where outcomes[index] == nil {
            guard let key = jobKeys[index] else { continue }
            if sharing[key] != nil {
                sharing[key]!.append(index)
            } else {
                sharing[key] = []
                missing.append((index, jobs[index], key))
            }
        }
        // Every machine's layers composed into one image: the cover of a machine whose
        // machine.yaml names no photo, and the faded machine behind each of its part pages.
        var composedStacks: [String: ProcessedPhoto] = [:]
        var coverKeys: [String: String] = [:]
        var missingCovers: [(Machine, String)] = []
        for (index, machine) in content.machines.enumerated() where !machine.outlines.isEmpty {
            if carried[index], let cover = rows[index]?.cover, let key = cover.key {
                coverKeys[machine.slug] = key
                if case .photo(let photo)? = cover.outcome { composedStacks[machine.slug] = photo; continue }
                if cover.outcome != nil { continue }
            }
            // The machine's layers' keys, in stacking order as its jobs list them.
            let layerKeys = bundles[index].jobs.compactMap { job -> String?? in
                guard case .layer = jobs[job] else { return nil }
                return .some(jobKeys[job])
            }
            guard let key = coverKeys[machine.slug] ?? coverKey(machine, layerKeys: layerKeys) else { continue }
            coverKeys[machine.slug] = key
            switch cache.outcome(key, hint: rows[index]?.cover) {
            case .photo(let cover)?: composedStacks[machine.slug] = cover
            case .failed?, .layer?: break
            case nil: missingCovers.append((machine, key))
            }
        }
        let total = missing.count + missingCovers.count
        let counter = ProgressCounter(.images, total: total, handler: progress)
        let made = ParallelMap.map(missing) { index, job, key in
            let outcome = cache.store(key) { folder throws(ImageFailure) in try make(job, key: key, in: folder) }
            counter.step()
            return (index, key, outcome)
        }
        for (index, key, outcome) in made {
            outcomes[index] = outcome
            for other in sharing[key] ?? [] { outcomes[other] = outcome }
        }
        let composed = ParallelMap.map(missingCovers) { machine, key in
            let outcome = cache.store(key) { folder throws(ImageFailure) in try compose(machine, key: key, in: folder) }
            counter.step()
            return (machine.slug, outcome)
        }
        var coverOutcomes: [String: ImageCache.Outcome] = [:]
        for (slug, outcome) in composed {
            coverOutcomes[slug] = outcome
            if case .photo(let cover) = outcome { composedStacks[slug] = cover }
        }
        var covers: [String: ProcessedPhoto] = [:]
        for machine in content.machines where machine.cover == nil { covers[machine.slug] = composedStacks[machine.slug] }
        for (index, bundle) in bundles.enumerated() {
            guard !carried[index] else {
                cache.remember(bundle: bundle.name, settings: settingsKey, nil)
                continue
            }
            let slug = content.machines[index].slug
            let images = bundle.jobs.map { job -> BundleImages.Image in
                BundleImages.Image(path: jobs[job].source.absolutePath, key: jobKeys[job], outcome: outcomes[job])
            }
            let cover = coverKeys[slug].map { key in
                BundleImages.Image(path: "", key: key,
                                   outcome: coverOutcomes[slug] ?? composedStacks[slug].map { .photo($0) })
            }
            cache.remember(bundle: bundle.name, settings: settingsKey,
                           BundleImages(signature: bundle.signature, images: images, cover: cover))
        }
        cache.finish()

        var photos: [String: ProcessedPhoto] = [:], layers: [String: ProcessedLayer] = [:]
        var diagnostics: [Diagnostic] = []
        photos.reserveCapacity(jobs.count)
        layers.reserveCapacity(jobs.count)
        for (job, outcome) in zip(jobs, outcomes) {
            let path = job.source.absolutePath
            switch (outcome, job) {
            case (.photo(let photo)?, _): photos[path] = photo
            case (.layer(let layer)?, _): layers[path] = layer
            case (.failed(let failure)?, .photo(let file, _)):
                diagnostics.append(.warning(.photoSkipped(reason: failure.reason), at: file.location()))
            case (.failed(let failure)?, .layer(let layer)):
                diagnostics.append(.error(.unreadableImage(layer.image.name, reason: failure.reason), at: layer.image.location()))
            default: break
            }
        }
        return ProcessedImages(entries: cache.entries, photos: photos, layers: layers, covers: covers, composed: composedStacks,
                               diagnostics: diagnostics, processed: total)
    }

    // MARK: Jobs

    package enum Job: Sendable {
        case photo(SourceFile, widths: [Int])
        case layer(Layer)

        package var source: SourceFile {
            switch self {
            case .photo(let file, _): file
            case .layer(let layer): layer.image
            }
        }
    }

    /// Everything but the source that goes into a key.
    private var settingsKey: String {
        var fingerprint = Fingerprint()
        fingerprint.add(Self.pipelineVersion)
        fingerprint.add(Vips.version)
        fingerprint.add(maxPixels)
        for width in settings.widths { fingerprint.add(width) }
        fingerprint.add(settings.quality)
        fingerprint.add(SVGSanitizer.version)
        return fingerprint.digest.description
    }

    private func key(of job: Job) throws(ImageFailure) -> String {
        cache.counters.count(.imagesKeyed)
        var fingerprint = Fingerprint()
        fingerprint.add(Self.pipelineVersion)
        // Outcomes, failures included, hold only for the libvips that made them.
        fingerprint.add(Vips.version)
        do {
            fingerprint.add(try cache.digest(of: job.source.absolutePath))
        } catch {
            // Say why the file cannot be read (a dangling link, a folder) when that is known.
            _ = try ImageFormat.of(file: job.source.absolutePath)
            throw error
        }
        fingerprint.add(maxPixels)
        switch job {
        case .photo(_, let widths):
            fingerprint.add("photo")
            for width in widths { fingerprint.add(width) }
            fingerprint.add(settings.quality)
        case .layer(let layer):
            fingerprint.add("layer")
            fingerprint.add(layer.image.pathExtension)
            fingerprint.add(layer.size.width)
            fingerprint.add(layer.size.height)
            // An SVG is published as its sanitised copy, which changes with the sanitiser.
            if layer.image.pathExtension.lowercased() == "svg" { fingerprint.add("svg " + SVGSanitizer.version) }
        }
        return fingerprint.digest.description
    }

    /// A machine's cover is made from its layers (whose keys name their bytes and sizes) and
    /// where they sit; nil when a layer cannot be read.
    private func coverKey(_ machine: Machine, layerKeys: [String?]) -> String? {
        var fingerprint = Fingerprint()
        fingerprint.add("cover")
        fingerprint.add(machine.canvas.width)
        fingerprint.add(machine.canvas.height)
        for width in Self.coverWidths { fingerprint.add(width) }
        fingerprint.add(settings.quality)
        guard layerKeys.count == machine.outlines.count else { return nil }
        for (part, key) in zip(machine.outlines, layerKeys) {
            guard let key else { return nil }
            fingerprint.add(key)
            fingerprint.add(part.layer.x)
            fingerprint.add(part.layer.y)
        }
        return fingerprint.digest.description
    }

    // MARK: Making images

    private func make(_ job: Job, key: String, in folder: String) throws(ImageFailure) -> ImageCache.Outcome {
        switch job {
        case .photo(let file, let widths):
            let format = try ImageFormat.of(file: file.absolutePath)
            guard [.jpeg, .png, .webp].contains(format) else { throw .wrongFormat(found: format) }
            let header: Vips.Header, image: Vips.Image
            do {
                (image, header) = try Vips.openPhoto(file.absolutePath, format: format, maxPixels: maxPixels)
            } catch {
                throw .undecodable(error.reason)
            }
            let original = "original." + format.fileExtension
            try save(image, to: folder + "/" + original, as: format, quality: max(settings.quality, 90))
            let variants = try variants(of: image, widths: widths, in: folder)
            return .photo(ProcessedPhoto(key: key, width: image.size.width, height: image.size.height, variants: variants,
                                         original: original, format: format, metadata: PhotoMetadata(header)))
        case .layer(let layer):
            let (image, format) = try open(layer)
            let mask: HitMask?
            do {
                mask = HitMask(alpha: try image.alpha(), size: image.size,
                               box: (layer.x, layer.y, layer.size.width, layer.size.height))
            } catch {
                throw .undecodable(error.reason)
            }
            if format == .svg {
                // Published as drawing only: opened at its own URL, an SVG is a document that
                // could run script on the site's origin.
                let sanitized: Data
                do {
                    sanitized = try SVGSanitizer.sanitize(try Data(contentsOf: URL(fileURLWithPath: layer.image.absolutePath)))
                    try sanitized.write(to: URL(fileURLWithPath: folder + "/layer.svg"))
                } catch let failure as SVGSanitizer.Failure {
                    throw .undecodable(failure.reason)
                } catch {
                    throw .unreadable(ErrorText.text(error))
                }
                return .layer(ProcessedLayer(key: key, published: "layer.svg", mask: mask))
            }
            // Lossless for drawings and transparency; a photographic JPEG layer stays lossy.
            let lossless = image.hasAlpha || format != .jpeg
            try save(image, to: folder + "/layer.webp", as: .webp, quality: 90, lossless: lossless)
            return .layer(ProcessedLayer(key: key, published: "layer.webp", mask: mask))
        }
    }

    private func open(_ layer: Layer) throws(ImageFailure) -> (Vips.Image, ImageFormat) {
        let format = try ImageFormat.of(file: layer.image.absolutePath)
        do {
            // An SVG is drawn at the size of its box; a raster layer keeps its pixels.
            return (try Vips.open(layer.image.absolutePath, format: format, maxPixels: maxPixels,
                                  size: format == .svg ? layer.size : nil), format)
        } catch {
            throw .undecodable(error.reason)
        }
    }

    /// Layers decoded at once while a machine's picture is composed. All at once, 400 layers
    /// of 1600 x 1200 took 3.2 GB; in batches, the picture so far and one batch are held.
    package static let composeBatch = 16

    private func compose(_ machine: Machine, key: String, in folder: String) throws(ImageFailure) -> ImageCache.Outcome {
        var composed: Vips.Image?
        let outlines = machine.outlines
        for start in stride(from: 0, to: max(outlines.count, 1), by: Self.composeBatch) {
            // The picture so far goes first, under this batch's layers.
            var placed: [(image: Vips.Image, x: Int, y: Int)] = composed.map { [($0, 0, 0)] } ?? []
            for part in outlines[start..<min(start + Self.composeBatch, outlines.count)] {
                var (image, _) = try open(part.layer)
                if image.size != part.layer.size {
                    do { image = try image.scaled(to: part.layer.size) } catch { throw .undecodable(error.reason) }
                }
                placed.append((image, part.layer.x, part.layer.y))
            }
            do { composed = try Vips.compose(canvas: machine.canvas, layers: placed) } catch { throw .undecodable(error.reason) }
        }
        guard let composed else { throw .undecodable("the machine has no layers to compose") }
        let variants = try variants(of: composed, widths: Self.coverWidths, in: folder)
        return .photo(ProcessedPhoto(key: key, width: machine.canvas.width, height: machine.canvas.height, variants: variants,
                                     original: nil, format: .png,
                                     metadata: PhotoMetadata(camera: nil, taken: nil, latitude: nil, longitude: nil)))
    }

    /// WebP and JPEG copies at each width the image is wide enough for (never enlarged), and
    /// at its own width when it is narrower than the widest. Each is scaled from the next
    /// larger one, so the full image is resampled once.
    private func variants(of image: Vips.Image, widths: [Int], in folder: String) throws(ImageFailure) -> [ProcessedPhoto.Variant] {
        let full = image.size
        let targets = Set(widths.filter { $0 < full.width } + [min(full.width, widths.max() ?? full.width)]).sorted(by: >)
        var current = image
        var variants: [ProcessedPhoto.Variant] = []
        for width in targets {
            let height = max(1, Int((Double(full.height) * Double(width) / Double(full.width)).rounded()))
            if current.size.width != width {
                do { current = try current.scaled(to: PixelSize(width: width, height: height)) } catch { throw .undecodable(error.reason) }
            }
            let variant = ProcessedPhoto.Variant(width: width, height: height, webp: "\(width).webp", jpeg: "\(width).jpg")
            try save(current, to: folder + "/" + variant.webp, as: .webp, quality: settings.quality)
            try save(current, to: folder + "/" + variant.jpeg, as: .jpeg, quality: settings.quality)
            variants.append(variant)
        }
        return variants.reversed()
    }

    private func save(_ image: Vips.Image, to path: String, as format: ImageFormat, quality: Int, lossless: Bool = false)
        throws(ImageFailure) {
        do { try image.save(to: path, as: format, quality: quality, lossless: lossless) } catch {
            throw .unreadable("cannot write \(path): \(error.reason)")
        }
    }
}

