import Foundation
import TeardownThemes
import TeardownBase
import TeardownContent
import TeardownMedia

extension SiteBuilder {
    /// Every output's digest, and what the published and spare trees hold. A page is carried
    /// over when every unit it read last time has the digest it had then; the others are
    /// rendered. Copied files are fingerprinted by their source.
    func fingerprint(_ site: PlannedSite, signatures: [String: ContentDigest],
                             opened: (BuildStore, BuildStore.Notice?)?) throws -> Outputs {
        let publisher = Publisher(output: output, state: cache.output(output))
        let trees = try publisher.recover(opened: opened)
        let published = full ? nil : trees.published
        let readsKnown = published != nil && trees.readsArePublished
        let context = Self.unitContext(site.content)
        let bundleNames = site.content.machines.map(Self.bundleName(of:))
        let carried = !readsKnown ? [] : try Self.carried(site.content, names: bundleNames, signatures: signatures,
                                                               stored: trees.store.bundles(context: context))
        let units = UnitDigests(site, carried: carried)
        // The stored digests of every unit but the carried machines' ones, to find what changed;
        // then only the readers of the units that changed are read from the store.
        var goneSlugs: [String] = []
        let changedUnits = try (readsKnown ? published : nil).map { _ in
            let slugs = Set(site.content.machines.map(\.slug))
            goneSlugs = try trees.store.machineSlugs().subtracting(slugs).sorted()
            let machines = units.computedMachines.map { site.content.machines[$0].slug } + goneSlugs
            let stored = try trees.store.units(keys: UnitDigests.siteKeys,
                                               prefixes: UnitDigests.sitePrefixes + machines.flatMap(UnitDigests.keyPrefixes(ofMachine:)))
            return stored.compactMap { units.computed[$0.key] != $0.value ? $0.key : nil }
                + units.computed.keys.filter { stored[$0] == nil }
        }
        let stale = try changedUnits.map { try trees.store.readers(of: $0) }
        let bundles = BuildStore.Bundles(
            context: context,
            digested: units.computedMachines.compactMap { index in
                signatures[bundleNames[index]].map { (bundleNames[index], site.content.machines[index].slug, $0) }
            },
            unsettled: units.computedMachines.filter { signatures[bundleNames[$0]] == nil }.map { bundleNames[$0] },
            goneSlugs: goneSlugs)
        // Each output's path, worked out once on all cores; the render step picks its outputs by them too.
        let pagePaths = ParallelMap.map(site.plan.pages) { $0.url.outputPath }
        let copied = ParallelMap.map(site.plan.copies) { ($0.url.outputPath, Self.fingerprint(copy: $0)) }
        // The target starts as the published manifest and only what differs is written into it,
        // noted as a change for the later steps: made anew, with every path looked up three
        // times, it was most of this step in a one-comment sync at 10,000 parts.
        var target = published ?? [:]
        var changes = Set<String>()
        // Published outputs the plan has again: when they and the carried search files are all
        // the published ones, nothing is gone and the published paths need no look of their own.
        var kept = 0
        for path in pagePaths {
            let held = published?[path] != nil
            if held { kept += 1 }
            if !held || stale == nil {
                target[path] = Outputs.unrendered
                changes.insert(path)
            }
        }
        // Readers are pages; one no longer planned is taken out below, with everything else gone.
        for path in stale ?? [] where published?[path] != nil {
            target[path] = Outputs.unrendered
            changes.insert(path)
        }
        for (path, digest) in copied {
            let held = published?[path]
            if held != nil { kept += 1 }
            if held != digest {
                target[path] = digest
                changes.insert(path)
            }
        }
        // A shard of the search index changes only when a page it indexes does: every file of
        // it is marked with one digest of those pages, so an unchanged shard is carried over
        // like a page.
        var staleShards: [Outputs.Shard] = []
        var carriedFiles: [String] = []
        if let indexer = site.indexer, let shards = site.search.shards {
            var pages = Array(repeating: [String](), count: shards.shards.count)
            var later = Array(repeating: [String: [String]](), count: shards.shards.count)
            // A discussion's pages are planned one after another (SitePlan): a later page
            // belongs to the first page planned last.
            var firstPage: String?
            for (entry, path) in zip(site.plan.pages, pagePaths) {
                guard let shard = shards.shard(of: entry.page) else { continue }
                pages[shard].append(path)
                switch entry.page {
                case .machine(_, discussionPage: 1), .part(_, _, discussionPage: 1): firstPage = path
                case .machine, .part: if let firstPage { later[shard][firstPage, default: []].append(path) }
                default: break
                }
            }
            let files = Self.shardFiles(published ?? [:], shards: shards)
            for (number, shard) in shards.shards.enumerated() {
                let held = files[number]
                if !held.isEmpty, pages[number].allSatisfy({ target[$0] != Outputs.unrendered }),
                   case let digest = Self.digest(of: shard, pages: pages[number], target, indexer: indexer),
                   held.values.allSatisfy({ $0 == digest }) {
                    carriedFiles += held.keys
                } else {
                    for path in held.keys {
                        target[path] = nil
                        changes.insert(path)
                    }
                    staleShards.append(Outputs.Shard(shard: shard, pages: pages[number], later: later[number]))
                }
            }
        }
        if let published, kept + carriedFiles.count != published.count {
            var planned = Set(pagePaths)
            planned.formUnion(copied.lazy.map(\.0))
            planned.formUnion(carriedFiles)
            for path in published.keys where !planned.contains(path) {
                target[path] = nil
                changes.insert(path)
            }
        }
        // A full build stages against the spare's whole manifest: the published one but at the lag's paths.
        var spare = trees.spare
        if published == nil, case .lagging(let lag)? = spare {
            spare = trees.published.map { published in
                var manifest = published
                for (path, held) in lag { manifest[path] = held }
                return .whole(manifest)
            }
        }
        return Outputs(publisher: publisher, target: target, published: published, spare: spare, changes: changes,
                       pagePaths: pagePaths, copyPaths: copied.map(\.0), units: units,
                       store: trees.store, readsKnown: readsKnown, changedUnits: changedUnits ?? [], bundles: bundles,
                       staleShards: staleShards,
                       notice: trees.notice)
    }

    /// The machines whose units the store holds as they are now: their bundle has the signature
    /// it had when they were digested (a settled one: see `InputSnapshot.BundleSignatures`),
    /// under the same settings.
    static func carried(_ content: SiteContent, names: [String], signatures: [String: ContentDigest],
                                stored: [String: (slug: String, signature: ContentDigest)]) -> Set<Int> {
        var carried = Set<Int>()
        for (index, machine) in content.machines.enumerated() {
            if let signature = signatures[names[index]], let row = stored[names[index]], row.slug == machine.slug,
               row.signature == signature {
                carried.insert(index)
            }
        }
        return carried
    }

    /// A machine's bundle, as the input snapshot names it.
    static func bundleName(of machine: Machine) -> String {
        (machine.folder.displayPath as NSString).lastPathComponent
    }

    /// What a machine's units depend on besides its bundle: site.yaml (photo sizes, limits,
    /// Markdown settings) and the versions of what turns images and bundles into outputs.
    static func unitContext(_ content: SiteContent) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(TeardownVersion.build)
        fingerprint.add(content.config.source)
        fingerprint.add(ImageProcessor.pipelineVersion)
        fingerprint.add(Vips.version)
        fingerprint.add(SVGSanitizer.version)
        fingerprint.add(BundleDownloads.version)
        return fingerprint.digest
    }

    /// A copied file is the same while its source is.
    static func fingerprint(copy: SitePlan.Copy) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(copy.source)
        // A cached file's path says it all (and linking it changes its ctime).
        if !copy.cached, let stamp = FileSystem.stamp(of: copy.source) {
            fingerprint.add(stamp)
        }
        return fingerprint.digest
    }

    /// One digest of a shard's pages and of the indexer: when it is unchanged, so is the shard.
    static func digest(of shard: SearchShards.Shard, pages: [String], _ target: [String: ContentDigest],
                               indexer: Pagefind) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(indexer.signature)
        fingerprint.add(shard.folder)
        for page in pages {
            fingerprint.add(page)
            fingerprint.add(target[page] ?? Outputs.unrendered)
        }
        return fingerprint.digest
    }
}
