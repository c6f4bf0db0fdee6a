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

    /// The libvips images are made with, as cache keys hold it.
    private let vipsVersion: String

    package init(settings: PhotoSettings, maxPixels: Int, cache: ImageCache) {
        self.settings = settings
        self.maxPixels = maxPixels
        self.cache = cache
        vipsVersion = VipsVersion.current(memo: cache.vipsMemo)
    }

    /// `signatures` are the bundles' signatures the input snapshot vouches for: a bundle whose
    /// signature and settings are those of the last build keeps its images' keys and outcomes
    /// as the index holds them, without its sources being looked at or a key looked up.
    /// With `trustingStored` false (a full build) every image is keyed again, and the rows are
    /// still stored with their signatures, so the next build can carry them.
    package func process(_ content: SiteContent, signatures: [String: ContentDigest] = [:], trustingStored: Bool = true,
                 progress: BuildProgress.Handler? = nil) -> ProcessedImages {
        let settingsKey = self.settingsKey
        let carried = carry(content, signatures: signatures, settingsKey: settingsKey, trusting: trustingStored)
        var batch = ImageBatch(content, machines: carried.looked, photoWidths: settings.widths, coverWidths: Self.coverWidths,
                               signatures: signatures)
        batch.takeStored(from: cache, settingsKey: settingsKey, trusting: trustingStored)
        lookUpUnknown(&batch)
        let (missing, sharing) = batch.missing()
        var covers = findCovers(content, &batch)
        let total = missing.count + covers.missing.count
        let counter = ProgressCounter(.images, total: total, handler: progress)
        let made = ParallelMap.map(missing) { index, job, key in
            let outcome = cache.store(key) { folder throws(ImageFailure) in try make(job, key: key, in: folder) }
            counter.step()
            return (index, key, outcome)
        }
        for (index, key, outcome) in made {
            batch.outcomes[index] = outcome
            for other in sharing[key] ?? [] { batch.outcomes[other] = outcome }
        }
        let composed = ParallelMap.map(covers.missing) { machine, key in
            let outcome = cache.store(key) { folder throws(ImageFailure) in try compose(machine, key: key, in: folder) }
            counter.step()
            return (machine, outcome)
        }
        var coverFailures: [Diagnostic] = []
        for (machine, outcome) in composed {
            covers.outcomes[machine.slug] = outcome
            if case .photo(let cover) = outcome { covers.composed[machine.slug] = cover }
            if case .failed(.unwritten(let why)) = outcome {
                coverFailures.append(.error(.cacheFailed(reason: why), at: machine.folder.location()))
            }
        }
        remember(batch, covers: covers, content: content, settingsKey: settingsKey)
        for name in carried.names { cache.remember(bundle: name, settings: settingsKey, nil) }
        cache.finish()
        return batch.result(content, composed: covers.composed, carried: carried.value, entries: cache.entries, processed: total,
                            vipsVersion: vipsVersion, coverFailures: coverFailures)
    }

    /// The bundles whose stored row holds every image of theirs as it is: the bundle has the
    /// signature the row was made under, with the same settings, a key and an outcome for each
    /// of its images and its composed cover, and their entries are there. They get no job; the
    /// others (by index) are looked at. Nothing is carried when the rows are not trusted.
    private func carry(_ content: SiteContent, signatures: [String: ContentDigest], settingsKey: String, trusting: Bool)
        -> (value: ImageBatch.Carried, looked: [Int], names: [String]) {
        guard trusting else { return (ImageBatch.Carried(), Array(content.machines.indices), []) }
        var carried = ImageBatch.Carried(), looked: [Int] = [], names: [String] = []
        var bundles: [(folder: String, bundle: CarriedImages.Bundle)] = []
        for (m, machine) in content.machines.enumerated() {
            let name = machine.bundleName
            // The row's paths are absolute: a site moved whole keeps its bundles' signatures, not its paths.
            // Decided on the row's summary: its images are decoded only if a page asks for one,
            // or to say their failures again.
            guard let row = cache.storedRow(bundle: name, settings: settingsKey),
                  row.summary.holds(signature: signatures[name]?.description, count: ImageBatch.jobCount(of: machine),
                                    folder: machine.folder.absolutePath + "/", hasParts: machine.brief.partCount > 0),
                  cache.hasEntries(row), !row.summary.failed || row.images != nil
            else {
                looked.append(m)
                continue
            }
            names.append(name)
            bundles.append((machine.folder.absolutePath,
                            CarriedImages.Bundle(slug: machine.slug, row: row, composedIsCover: !machine.brief.namesCover)))
            if row.summary.failed, let images = row.images { failures(of: machine, images, into: &carried) }
        }
        carried.images = CarriedImages(bundles)
        return (carried, looked, names)
    }

    /// What a carried row says could not be used, said again as a build that made it said it.
    private func failures(of machine: Machine, _ row: BundleImages, into carried: inout ImageBatch.Carried) {
        let jobs = ImageBatch.jobs(of: machine, photoWidths: settings.widths, coverWidths: Self.coverWidths)
        for (job, image) in zip(jobs, row.images) {
            guard case .failed(let failure)? = image.outcome else { continue }
            carried.diagnostics.append(ImageBatch.diagnostic(failure, of: job))
            if case .photo(let file, _) = job { carried.failingPhotos.insert(file.absolutePath) }
        }
    }

    /// Works out, on all cores, the keys of the images no carried row gave (each reads a
    /// source's stat, or its bytes), then looks each up, its own stored row first.
    private func lookUpUnknown(_ batch: inout ImageBatch) {
        let unknown = batch.jobs.indices.filter { !batch.resolved[$0] }
        let jobs = batch.jobs
        cache.prepareSources(for: unknown.map { jobs[$0].source.absolutePath })
        let worked = ParallelMap.map(unknown) { index in Result { () throws(ImageFailure) in try key(of: jobs[index]) } }
        for (index, result) in zip(unknown, worked) {
            switch result {
            case .failure(let failure): batch.outcomes[index] = .failed(failure)
            case .success(let key):
                batch.jobKeys[index] = key
                batch.outcomes[index] = cache.outcome(key, hint: batch.hints[index])
            }
        }
    }

    /// Every machine's layers composed into one image: the cover of a machine whose
    /// machine.yaml names no photo, and the faded machine behind each of its part pages.
    private func findCovers(_ content: SiteContent, _ batch: inout ImageBatch) -> ImageBatch.Covers {
        var covers = ImageBatch.Covers()
        for (index, m) in batch.machines.enumerated() where !content.machines[m].outlines.isEmpty {
            let machine = content.machines[m]
            if batch.carried[index], let cover = batch.rows[index]?.cover, let key = cover.key {
                covers.keys[machine.slug] = key
                if case .photo(let photo)? = cover.outcome { covers.composed[machine.slug] = photo; continue }
                if cover.outcome != nil { continue }
            }
            // The machine's layers' keys, in stacking order as its jobs list them.
            let layerKeys = batch.bundles[index].jobs.compactMap { job -> String?? in
                guard case .layer = batch.jobs[job] else { return nil }
                return .some(batch.jobKeys[job])
            }
            guard let key = covers.keys[machine.slug] ?? coverKey(machine, layerKeys: layerKeys) else { continue }
            covers.keys[machine.slug] = key
            switch cache.outcome(key, hint: batch.rows[index]?.cover) {
            case .photo(let cover)?: covers.composed[machine.slug] = cover
            case .failed?, .layer?: break
            case nil: covers.missing.append((machine, key))
            }
        }
        return covers
    }

    /// Each changed bundle's row for the index, with its images' keys and outcomes.
    private func remember(_ batch: ImageBatch, covers: ImageBatch.Covers, content: SiteContent, settingsKey: String) {
        for (index, bundle) in batch.bundles.enumerated() {
            guard !batch.carried[index] else {
                cache.remember(bundle: bundle.name, settings: settingsKey, nil)
                continue
            }
            let slug = content.machines[batch.machines[index]].slug
            let images = bundle.jobs.map { job -> BundleImages.Image in
                BundleImages.Image(path: batch.jobs[job].source.absolutePath, key: batch.jobKeys[job], outcome: batch.outcomes[job])
            }
            let cover = covers.keys[slug].map { key in
                BundleImages.Image(path: "", key: key, outcome: covers.outcomes[slug] ?? covers.composed[slug].map { .photo($0) })
            }
            cache.remember(bundle: bundle.name, settings: settingsKey,
                           BundleImages(signature: bundle.signature, images: images, cover: cover))
        }
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
        fingerprint.add(vipsVersion)
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
        fingerprint.add(vipsVersion)
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
                    throw .unwritten(writing: error)
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
            guard error.system else { throw .unreadable("cannot write \(path): \(error.reason)") }
            // libvips' message names the file.
            throw .unwritten(error.reason + (error.noSpace ? ErrorText.noSpaceHint() : ""))
        }
    }
}

