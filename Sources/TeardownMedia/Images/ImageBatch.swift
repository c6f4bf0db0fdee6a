import Foundation
import TeardownBase
import TeardownContent

/// The image stage's work for one build: every image job of the site, bundle by bundle, with
/// each job's key and outcome set in place as the stage finds them. Carried bundles' come
/// straight from their stored rows: wrapped in a Result per job and copied over, every image of
/// the site went through several copies of its outcome.
struct ImageBatch {
    typealias Job = ImageProcessor.Job

    var jobs: [Job] = []
    var bundles: [(name: String, signature: String?, jobs: Range<Int>)] = []
    /// Each bundle's stored row, and whether its signature vouches for it as it is.
    var rows: [BundleImages?] = []
    var carried: [Bool] = []
    var hints: [BundleImages.Image?] = []
    var jobKeys: [String?] = []
    var outcomes: [ImageCache.Outcome?] = []
    var resolved: [Bool] = []

    /// The bundles taken as the image index holds them, without a job of their own, and what
    /// their rows say could not be used.
    struct Carried {
        var images: CarriedImages? = nil
        var diagnostics: [Diagnostic] = []
        var failingPhotos = Set<String>()
    }

    /// The covers composed from layers, by machine slug.
    struct Covers {
        var keys: [String: String] = [:]
        var composed: [String: ProcessedPhoto] = [:]
        var outcomes: [String: ImageCache.Outcome] = [:]
        var missing: [(Machine, String)] = []
    }

    /// The machines (by index) whose images this batch looks at, a bundle each, in order.
    let machines: [Int]

    init(_ content: SiteContent, machines: [Int], photoWidths: [Int], coverWidths: [Int], signatures: [String: ContentDigest]) {
        self.machines = machines
        for m in machines {
            let machine = content.machines[m]
            let first = jobs.count
            jobs += Self.jobs(of: machine, photoWidths: photoWidths, coverWidths: coverWidths)
            let name = machine.bundleName
            bundles.append((name, signatures[name]?.description, first..<jobs.count))
        }
        hints = Array(repeating: nil, count: jobs.count)
        jobKeys = Array(repeating: nil, count: jobs.count)
        outcomes = Array(repeating: nil, count: jobs.count)
        resolved = Array(repeating: false, count: jobs.count)
    }

    /// A machine's images in the order the image index lists them.
    static func jobs(of machine: Machine, photoWidths: [Int], coverWidths: [Int]) -> [Job] {
        var jobs: [Job] = machine.head.photos.map { .photo($0.file, widths: photoWidths) }
        if let cover = machine.cover { jobs.append(.photo(cover, widths: coverWidths)) }
        for part in machine.outlines {
            jobs.append(.layer(part.layer))
            for photo in part.photos { jobs.append(.photo(photo.file, widths: photoWidths)) }
        }
        return jobs
    }

    /// What a build says of an image that could not be used: a photo is left out, a layer stops the build.
    static func diagnostic(_ failure: ImageFailure, of job: Job) -> Diagnostic {
        if case .unwritten(let why) = failure { return .error(.cacheFailed(reason: why), at: job.source.location()) }
        return switch job {
        case .photo(let file, _): .warning(.photoSkipped(reason: failure.reason), at: file.location())
        case .layer(let layer): .error(.unreadableImage(layer.image.name, reason: failure.reason), at: layer.image.location())
        }
    }

    /// How many images a machine has: the length of its row.
    static func jobCount(of machine: Machine) -> Int { machine.brief.imageCount }

    /// Takes each bundle's stored row: a carried bundle's keys and outcomes as they are, the
    /// others' images as hints for the lookup. Not `trusting` the rows, no bundle is carried.
    mutating func takeStored(from cache: ImageCache, settingsKey: String, trusting: Bool) {
        rows = bundles.map { cache.stored(bundle: $0.name, settings: settingsKey) }
        carried = bundles.indices.map { index -> Bool in
            guard trusting, let row = rows[index] else { return false }
            return row.holds(signature: bundles[index].signature, paths: jobs[bundles[index].jobs].lazy.map(\.source.absolutePath))
                && cache.hasEntries(row)
        }
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
    }

    /// The jobs to make now, one per key: files with the same bytes and settings share one
    /// entry, made once, not by two workers racing to rename their copies into the same place.
    func missing() -> (jobs: [(index: Int, job: Job, key: String)], sharing: [String: [Int]]) {
        var missing: [(index: Int, job: Job, key: String)] = []
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
        return (missing, sharing)
    }

    /// The stage's result: each image by its source's path, and what could not be read.
    func result(_ content: SiteContent, composed: [String: ProcessedPhoto], carried: Carried, entries: String, processed: Int,
                vipsVersion: String, coverFailures: [Diagnostic]) -> ProcessedImages {
        var covers: [String: ProcessedPhoto] = [:]
        for m in machines where content.machines[m].cover == nil { covers[content.machines[m].slug] = composed[content.machines[m].slug] }
        var photos: [String: ProcessedPhoto] = [:], layers: [String: ProcessedLayer] = [:]
        var diagnostics = carried.diagnostics + coverFailures
        var failing = carried.failingPhotos
        // Each table sized for its own kind: sized for every job, the photos' held a slot a layer.
        let photoCount = jobs.count { if case .photo = $0 { true } else { false } }
        photos.reserveCapacity(photoCount)
        layers.reserveCapacity(jobs.count - photoCount)
        for (job, outcome) in zip(jobs, outcomes) {
            let path = job.source.absolutePath
            switch (outcome, job) {
            case (.photo(let photo)?, _): photos[path] = photo
            case (.layer(let layer)?, _): layers[path] = layer
            case (.failed(let failure)?, _):
                diagnostics.append(Self.diagnostic(failure, of: job))
                if case .photo(let file, _) = job { failing.insert(file.absolutePath) }
            case (nil, .photo(let file, _)): failing.insert(file.absolutePath)
            default: break
            }
        }
        return ProcessedImages(entries: entries, photos: photos, layers: layers, covers: covers, composed: composed,
                               carried: carried.images, diagnostics: diagnostics, processed: processed, vipsVersion: vipsVersion,
                               failingPhotos: failing)
    }
}
