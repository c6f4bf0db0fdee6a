import Foundation
import TeardownBase
import TeardownContent

/// Processed images in the git-ignored cache folder, so an unchanged photo is never processed
/// again. An entry is named by a digest of the source's bytes, the operation and its settings;
/// a source's digest is remembered with the file's stat signature, so unchanged files are not
/// read again either. The index (`ImageIndex`) keeps each bundle's keys and outcomes, so a
/// bundle whose signature is unchanged is taken as it is, with no key looked up. Entries no
/// bundle uses any more are pruned when the build ends.
package final class ImageCache: @unchecked Sendable {
    /// A cached outcome: the result, or why the image cannot be used (kept too, so a broken
    /// photo is not decoded again on every build).
    package enum Outcome: Sendable {
        case photo(ProcessedPhoto)
        case layer(ProcessedLayer)
        case failed(ImageFailure)
    }

    package let root: String
    /// Where sources hashed, outcomes looked up by key (those of a bundle taken as it is are
    /// not) and listings of the entries folder are counted.
    package let counters: BuildCounters
    package var entries: String { root + "/entries" }
    /// The libvips version the cache's keys were made with, and the file it was read from (`VipsVersion`).
    package var vipsMemo: String { root + "/libvips" }
    private let index: ImageIndex?
    private let lock = NSLock()
    /// The rows as the index held them when the build began, each decoded when first asked for.
    private var stored: [String: StoredImageRow] = [:]
    /// Every stored outcome by key, made when a key is first looked up outside its own bundle's row.
    private var byKey: [String: Outcome]?
    /// The indexes of earlier versions (files read whole), read once when the index is new.
    var legacyOutcomes: [String: Outcome] = [:]
    var legacySources: [String: (signature: UInt64, digest: String)] = [:]
    /// Source digests worked out by this build, for the index.
    private var sourcesNow: [String: (signature: UInt64, digest: String)] = [:]
    /// This build's rows, by bundle (nil: the stored row, kept as it is).
    private var rows: [String: (settings: String, images: BundleImages?)] = [:]
    /// The entries folder as it was when the build began or listed it, and when that was.
    private var reference: (status: FileSystem.Status?, taken: Double)
    /// Whether the index vouches that every stored row's entry is there: the entries folder
    /// is as it was when that was last known, and was not changed within the racy window of it.
    private let vouched: Bool
    /// The names in the entries folder, when a build had to list it.
    private var listing: Set<String>?
    /// Whether this build made or removed an entry.
    private var foldersChanged = false

    package init(root: String, counters: BuildCounters = .none) {
        self.root = root
        self.counters = counters
        var index = ImageIndex.open(root + "/index.sqlite")
        var rows: [String: ImageIndex.Summary] = [:]
        do { rows = try index?.summaries() ?? [:] } catch { index = ImageIndex.remade(root + "/index.sqlite") }
        self.index = index
        let taken = Date().timeIntervalSince1970
        let status = FileSystem.status(root + "/entries")
        reference = (status, taken)
        if let status, let stamp = index?.entriesStamp(), let vouched = Self.parse(stamp) {
            self.vouched = vouched.signature == status.signature && status.changed < vouched.taken - InputSnapshot.racyWindow
        } else {
            vouched = false
        }
        for (name, row) in rows {
            stored[name] = StoredImageRow(name: name, row, index: index, damaged: damaged, counters: counters)
        }
        counters.count(.imageRowsRead, by: rows.count)
        // Unvouched entries (the first build after one that made images) are looked for along
        // every row's images.
        if !vouched { readEveryRow() }
        if index?.isNew ?? true { readLegacyIndexes() }
    }

    private static func stamp(_ status: FileSystem.Status, taken: Double) -> String {
        "\(String(status.signature, radix: 16)) \(taken)"
    }

    private static func parse(_ stamp: String) -> (signature: UInt64, taken: Double)? {
        let fields = stamp.split(separator: " ")
        guard fields.count == 2, let signature = UInt64(fields[0], radix: 16), let taken = Double(fields[1]) else { return nil }
        return (signature, taken)
    }

    /// The stored row of `bundle`, when its keys were made under `settings`.
    package func stored(bundle: String, settings: String) -> BundleImages? {
        storedRow(bundle: bundle, settings: settings)?.images
    }

    /// The stored row of `bundle` undecoded, when its keys were made under `settings`.
    package func storedRow(bundle: String, settings: String) -> StoredImageRow? {
        guard let row = stored[bundle], row.settings == settings else { return nil }
        return row
    }

    /// Carried rows found damaged by the pages that read them: the build starts over once.
    package struct DamagedRows: Error, Sendable, CustomStringConvertible {
        package let bundles: [String]

        package var description: String {
            "the image cache's index was damaged for \(bundles.joined(separator: ", ")): the build started over and looked their images up again"
        }
    }

    /// Rows whose bytes were found damaged when read (`StoredImageRow`).
    private let damaged = Locked<Set<String>>([])

    /// The bundles this build carried on their row's summary whose bytes a page then found
    /// damaged: their pages lack what the row held, so the build must not publish them. Their
    /// rows are dropped; the build starting over looks their images up again.
    package func damagedCarriedRows() -> DamagedRows? {
        let found = damaged.withLock { $0 }
        guard !found.isEmpty else { return nil }
        lock.lock()
        let carried = found.filter { name in rows[name].map { $0.images == nil } ?? false }.sorted()
        lock.unlock()
        guard !carried.isEmpty else { return nil }
        index?.drop(carried)
        return DamagedRows(bundles: carried)
    }

    /// `hasEntries` for a row that is not decoded unless the index cannot vouch for the entries.
    package func hasEntries(_ row: StoredImageRow) -> Bool { vouched || row.images.map(hasEntries) == true }

    /// Whether every entry `images` names is in the entries folder: vouched for by the index,
    /// or else looked for in a listing of the folder, taken once.
    package func hasEntries(_ images: BundleImages) -> Bool {
        if vouched { return true }
        lock.lock()
        defer { lock.unlock() }
        let present = presentEntries()
        return (images.images + (images.cover.map { [$0] } ?? [])).allSatisfy { image in
            guard let key = image.key, let outcome = image.outcome else { return true }
            return !outcome.hasFiles || present.contains(key)
        }
    }

    /// Readies the source digests for keying the images at `paths`, in one query: past a few
    /// hundred, every stored digest (a full build's image step); below, those of `paths`. A
    /// query per image, from the keying threads in turn, was most of a one-comment sync's image
    /// step: each of the commented machine's images waited for the index's queue.
    package func prepareSources(for paths: [String]) {
        guard let index, !paths.isEmpty else { return }
        let named = paths.count > 256 ? nil : paths
        let found = index.sources(named)
        counters.count(.sourceQueries)
        lock.lock()
        preparedSources = (named.map(Set.init), found)
        lock.unlock()
    }

    /// The stored source digests `prepareSources` read, and the paths it read them for (nil
    /// for every path).
    private var preparedSources: (paths: Set<String>?, found: [String: (signature: UInt64, digest: String)])?

    /// The SHA-256 of a file's bytes, read again only when its stat signature changed.
    package func digest(of path: String) throws(ImageFailure) -> String {
        guard let status = FileSystem.status(path) else { throw .unreadable("the file cannot be read") }
        lock.lock()
        let legacy = legacySources[path]
        let prepared = preparedSources
        lock.unlock()
        let stored = if let prepared, prepared.paths?.contains(path) ?? true {
            prepared.found[path]
        } else {
            index.flatMap { index in
                counters.count(.sourceQueries)
                return index.source(path)
            }
        }
        if let known = stored ?? legacy, known.signature == status.signature {
            if legacy != nil { remember(source: path, (status.signature, known.digest)) }
            return known.digest
        }
        // An unreadable source has no digest; the image step reports it when it reads the file.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else {
            throw .unreadable("the file cannot be read")
        }
        let digest = SHA256Hex.of(data)
        counters.count(.sourcesHashed)
        remember(source: path, (status.signature, digest))
        return digest
    }

    private func remember(source path: String, _ source: (signature: UInt64, digest: String)) {
        lock.lock()
        sourcesNow[path] = source
        lock.unlock()
    }

    /// The outcome stored under `key`, when its files are still there. `hint` is the image at
    /// the same place in the bundle's stored row: a changed bundle mostly keeps its images.
    package func outcome(_ key: String, hint: BundleImages.Image? = nil) -> Outcome? {
        counters.count(.imagesLookedUp)
        lock.lock()
        defer { lock.unlock() }
        let outcome: Outcome?
        if let hint, hint.key == key, let known = hint.outcome {
            outcome = known
        } else {
            outcome = outcomesByKey()[key]
        }
        guard let outcome else { return nil }
        return !outcome.hasFiles || vouched || presentEntries().contains(key) ? outcome : nil
    }

    /// Every stored row's bytes in one pass, for a look along every row: a query a row, each
    /// its own read transaction, cost more than the rows.
    private func readEveryRow() {
        guard let index, !stored.isEmpty else { return }
        let all = index.allBytes()
        counters.count(.imageRowsFetched, by: all.count)
        for (name, bytes) in all { stored[name]?.take(bytes) }
    }

    private func outcomesByKey() -> [String: Outcome] {
        if let byKey { return byKey }
        readEveryRow()
        var made = legacyOutcomes
        for row in stored.values {
            for image in (row.images?.images ?? []) + (row.images?.cover.map { [$0] } ?? []) {
                if let key = image.key, let outcome = image.outcome { made[key] = outcome }
            }
        }
        byKey = made
        return made
    }

    /// The names in the entries folder, listed once (under the lock), when the index cannot
    /// vouch for them. Entries made since are added by `store`; `finish` prunes from this list.
    private func presentEntries() -> Set<String> {
        if let listing { return listing }
        // Taken before the listing: a change after it shows in the folder's status.
        reference = (FileSystem.status(entries), Date().timeIntervalSince1970)
        counters.count(.imageListings)
        let listed = Set(FileSystem.names(in: entries))
        listing = listed
        return listed
    }

    /// Makes the files of entry `key` in a hidden folder given to `make`, then renames it into
    /// place, so a build killed half-way never leaves a partial entry behind.
    package func store(_ key: String, _ make: (String) throws(ImageFailure) -> Outcome) -> Outcome {
        let folder = entries + "/" + key
        let temporary = entries + "/.\(key).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let outcome: Outcome
        lock.lock()
        foldersChanged = true
        lock.unlock()
        do {
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        } catch {
            // The cache cannot be written: the build fails with it, and keeps nothing.
            return .failed(.unwritten(writing: error))
        }
        do throws(ImageFailure) {
            let made = try make(temporary)
            if case .failed = made {
                FileSystem.discard(temporary)
            } else {
                FileSystem.discard(folder)
                do { try FileSystem.rename(temporary, to: folder) } catch {
                    FileSystem.discard(temporary)
                    // Another build (of another output of the same site) made the same entry
                    // meanwhile: its files are the same, since the key names what they are made of.
                    guard FileSystem.isDirectory(folder) else { return .failed(.unwritten(writing: error)) }
                }
            }
            outcome = made
        } catch {
            FileSystem.discard(temporary)
            outcome = .failed(error)
        }
        lock.lock()
        if outcome.hasFiles { listing?.insert(key) }
        lock.unlock()
        return outcome
    }

    /// Keeps this build's row of `bundle`: nil keeps the stored row as it is. An image whose
    /// entry could not be written keeps no outcome, so the next build tries again.
    package func remember(bundle: String, settings: String, _ images: BundleImages?) {
        func kept(_ image: BundleImages.Image) -> BundleImages.Image {
            guard case .failed(.unwritten)? = image.outcome else { return image }
            return BundleImages.Image(path: image.path, key: image.key, outcome: nil)
        }
        let row = images.map { BundleImages(signature: $0.signature, images: $0.images.map(kept), cover: $0.cover.map(kept)) }
        lock.lock()
        rows[bundle] = (settings, row)
        lock.unlock()
    }

    /// Writes the rows that changed and removes the entries no bundle uses any more. Losing the
    /// index costs only time, so it is written without fsync.
    package func finish() {
        lock.lock()
        defer {
            releaseRemade()
            lock.unlock()
        }
        var (changes, dropped) = rowChanges()
        changes.sources = sourcesNow
        removeUnused(dropped)
        // The index vouches for the entries only while the folder is as this build found it:
        // a folder this build changed is listed by the next one, which vouches from then on.
        let now = FileSystem.status(entries)
        if !foldersChanged, vouched || listing != nil, let now, let before = reference.status, now.signature == before.signature {
            changes.entriesStamp = Self.stamp(now, taken: reference.taken)
        }
        let stampChanged = changes.entriesStamp != index?.entriesStamp()
        guard !changes.bundles.isEmpty || !changes.goneBundles.isEmpty || !changes.sources.isEmpty
            || !changes.goneSources.isEmpty || stampChanged else { return }
        // Losing the index costs only time: a folder that cannot be made leaves it unwritten.
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        index?.write(changes, counters: counters)
        if index?.isNew == true {
            // Files of the legacy cache that stay cost only space; the new index no longer reads them.
            for file in ["outcomes.bin", "outcomes", "sources", "bundles.bin"] { try? FileSystem.unlinkIfPresent(root + "/" + file) }
        }
    }

    /// Lets go of the rows this build made again, and of what it read of their stored ones:
    /// the index holds them now and the stage's result holds their outcomes, which is all the
    /// pages read. Held to the end of a build that remakes every row, they were a second and a
    /// third copy of every image's outcome. The carried rows stay: pages read them by name.
    /// So do the sources' digests, read and worked out: a digest asked for later is read again.
    private func releaseRemade() {
        for (name, row) in rows where row.images != nil { stored[name] = nil }
        rows = rows.filter { $0.value.images == nil }
        byKey = nil
        preparedSources = nil
        sourcesNow = [:]
    }

    /// The rows made again and those gone, and the keys with files that rows rewritten or
    /// removed held and no longer hold themselves.
    private func rowChanges() -> (ImageIndex.Changes, dropped: Set<String>) {
        var changes = ImageIndex.Changes()
        var dropped = Set<String>()
        func keys(_ images: BundleImages?) -> [String] {
            ((images?.images ?? []) + (images?.cover.map { [$0] } ?? [])).compactMap { $0.outcome?.hasFiles == true ? $0.key : nil }
        }
        for (name, row) in rows {
            // A row made again is written: only a bundle that is not taken as it is gets one.
            guard let images = row.images, let written = try? ImageIndex.Row(settings: row.settings, images: images) else { continue }
            changes.bundles[name] = written
            dropped.formUnion(Set(keys(stored[name]?.images)).subtracting(keys(images)))
            let paths = Set(images.images.map(\.path))
            changes.goneSources += (stored[name]?.images?.images ?? []).map(\.path).filter { !paths.contains($0) }
        }
        for (name, row) in stored where rows[name] == nil {
            changes.goneBundles.append(name)
            dropped.formUnion(keys(row.images))
            changes.goneSources += (row.images?.images ?? []).map(\.path)
        }
        return (changes, dropped)
    }

    /// Removes the dropped keys' entries that no bundle uses now, and, when the folder was
    /// listed, entries of no bundle (from a build killed after making them). The keys in use are
    /// worked out only then. A removal that fails leaves an entry for a later build to remove.
    private func removeUnused(_ dropped: Set<String>) {
        guard !dropped.isEmpty || listing != nil else { return }
        var used = Set<String>()
        for (name, row) in rows {
            guard let images = row.images ?? stored[name]?.images else { continue }
            for image in images.images + (images.cover.map { [$0] } ?? []) { if let key = image.key { used.insert(key) } }
        }
        for key in dropped where !used.contains(key) {
            FileSystem.discard(entries + "/" + key)
            foldersChanged = true
        }
        for name in listing ?? [] where !used.contains(name) {
            // Hidden folders are other builds' entries in the making, unless their process is gone.
            if name.hasPrefix("."), let pid = pid_t(name.split(separator: "-").dropFirst().first ?? ""),
               kill(pid, 0) == 0 || Glibc.errno != ESRCH {
                continue
            }
            FileSystem.discard(entries + "/" + name)
            foldersChanged = true
        }
    }
}
