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

    /// The covers composed from layers, by machine slug.
    struct Covers {
        var keys: [String: String] = [:]
        var composed: [String: ProcessedPhoto] = [:]
        var outcomes: [String: ImageCache.Outcome] = [:]
        var missing: [(Machine, String)] = []
    }

    init(_ content: SiteContent, photoWidths: [Int], coverWidths: [Int], signatures: [String: ContentDigest]) {
        for machine in content.machines {
            let first = jobs.count
            for photo in machine.head.photos { jobs.append(.photo(photo.file, widths: photoWidths)) }
            if let cover = machine.cover { jobs.append(.photo(cover, widths: coverWidths)) }
            for part in machine.outlines {
                jobs.append(.layer(part.layer))
                for photo in part.photos { jobs.append(.photo(photo.file, widths: photoWidths)) }
            }
            let name = (machine.folder.displayPath as NSString).lastPathComponent
            bundles.append((name, signatures[name]?.description, first..<jobs.count))
        }
        hints = Array(repeating: nil, count: jobs.count)
        jobKeys = Array(repeating: nil, count: jobs.count)
        outcomes = Array(repeating: nil, count: jobs.count)
        resolved = Array(repeating: false, count: jobs.count)
    }

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
    func result(_ content: SiteContent, composed: [String: ProcessedPhoto], entries: String, processed: Int,
                vipsVersion: String) -> ProcessedImages {
        var covers: [String: ProcessedPhoto] = [:]
        for machine in content.machines where machine.cover == nil { covers[machine.slug] = composed[machine.slug] }
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
        return ProcessedImages(entries: entries, photos: photos, layers: layers, covers: covers, composed: composed,
                               diagnostics: diagnostics, processed: processed, vipsVersion: vipsVersion)
    }
}
