import Foundation
import TeardownThemes
import TeardownBase
import TeardownContent
import TeardownMedia

extension SiteBuilder {
    /// Every output's digest, and what the published and spare trees hold. A page is carried
    /// over when every unit it read last time has the digest it had then; the others are
    /// rendered. Copied files are fingerprinted by their source.
    ///
    /// A plan that carried machines is made again with more of them when it will not do: with
    /// those of a search shard to index again (`ShardMarks`), or with every machine when the
    /// store does not hold what the published pages read, a page of a carried machine is to be
    /// rendered again, or a published output is gone.
    func fingerprint(_ planned: PlannedSite, signatures: [String: ContentDigest], opened: (BuildStore, BuildStore.Notice?)?,
                     downloadSignatures: [String: ContentDigest]) throws -> (PlannedSite, Outputs) {
        let publisher = Publisher(output: output, state: cache.output(output), counters: counters)
        let trees = try publisher.recover(opened: opened)
        let published = full ? nil : trees.published
        let readsKnown = published != nil && trees.readsArePublished
        var site = planned
        if !readsKnown { site = try planMachines(nil, in: site, signatures: downloadSignatures) }
        for attempt in 0... {
            switch try outputs(site, trees: trees, published: published, readsKnown: readsKnown, publisher: publisher,
                               signatures: signatures, racySignatures: downloadSignatures.filter { signatures[$0.key] == nil }) {
            case .done(let outputs): return (site, outputs)
            case .planMore(let machines):
                // A plan of every machine always does; one more try with a shard's is enough.
                precondition(!site.plan.carried.isEmpty, "a plan of every machine always does")
                site = try planMachines(attempt == 0 ? machines : nil, in: site, signatures: downloadSignatures)
            }
        }
        preconditionFailure("unreachable")
    }

    /// What the store learns of the bundles: the rows of those digested under a settled
    /// signature, and of the racy ones should they settle by the end of the build (`settle`).
    private static func bundles(_ site: PlannedSite, units: UnitDigests, context: ContentDigest, signatures: [String: ContentDigest],
                                racySignatures: [String: ContentDigest], goneSlugs: [String]) -> BuildStore.Bundles {
        let names = site.content.machines.map(\.bundleName)
        func row(_ index: Int, _ signature: ContentDigest?) -> BuildStore.Bundles.Digested? {
            guard let signature, let counts = site.plan.planned[index] else { return nil }
            let slug = site.content.machines[index].slug
            let summary = site.summaries[index]
            let facts = CatalogFacts(ContentView(site.content, reads: ReadSet()).machines[index], cover: summary.cover,
                                     download: site.downloads.download(of: index, slug: slug)?.bundle)
            return (names[index], slug, signature, counts, summary.encoded, facts.encoded)
        }
        let unsettled = units.computedMachines.filter { signatures[names[$0]] == nil }
        var bundles = BuildStore.Bundles(context: context, digested: units.computedMachines.compactMap { row($0, signatures[names[$0]]) },
                                         unsettled: unsettled.map { names[$0] }, goneSlugs: goneSlugs)
        bundles.racy = unsettled.compactMap { row($0, racySignatures[names[$0]]) }
        return bundles
    }

    private enum Fingerprinted {
        case done(Outputs)
        /// The carried machines to plan too; nil: every machine.
        case planMore(Set<Int>?)
    }

    /// The outputs of `site`'s plan against the published tree, or which machines to plan too
    /// when the plan carried machines and that will not do.
    private func outputs(_ site: PlannedSite, trees: Publisher.Trees, published: StoredManifest?, readsKnown: Bool,
                         publisher: Publisher, signatures: [String: ContentDigest],
                         racySignatures: [String: ContentDigest]) throws -> Fingerprinted {
        let context = Self.unitContext(site.content, vipsVersion: site.images.vipsVersion)
        var units = UnitDigests(site, carried: readsKnown ? site.carried : [], allTagPages: !readsKnown)
        let (changedUnits, goneSlugs) = try readsKnown
            ? Self.changedUnits(site, units: &units, store: trees.store) : (nil, [])
        let stale = try changedUnits.map { try trees.store.readers(of: $0) }
        // Each output's path, worked out once on all cores; the render step picks its outputs by them too.
        let pagePaths = ParallelMap.map(site.plan.pages) { $0.url.outputPath }
        let copied = ParallelMap.map(site.plan.copies) { ($0.url.outputPath, Self.fingerprint(copy: $0)) }
        // The published rows of what is planned, in one read: the rest are not looked at.
        try published?.fetch(pagePaths + copied.map(\.0) + (stale ?? []))
        let partial = !site.plan.carried.isEmpty
        if partial, let stale, let published {
            let planned = Set(pagePaths)
            if stale.contains(where: { published[$0] != nil && !planned.contains($0) }) { return .planMore(nil) }
        }
        let machinePages = site.plan.pages.reduce(0) { $0 + ($1.page.machine == nil ? 0 : 1) }
        counters.count(.pagesPlanned, by: machinePages)
        counters.count(.sitePagesPlanned, by: pagePaths.count - machinePages)
        counters.count(.copiesPlanned, by: site.plan.copies.count)
        var manifest = TargetManifest(published: published)
        manifest.mark(pages: pagePaths, stale: stale)
        manifest.mark(copies: copied)
        let storedRecent = site.indexer == nil ? [] : try trees.store.recentPages()
        let shards = try ShardMarks.mark(site, pagePaths: pagePaths, storedLayout: site.indexer == nil ? nil : trees.store.searchLayout(),
                                         storedRecent: storedRecent, &manifest)
        if shards.unplanned != [] { return .planMore(shards.unplanned) }
        let (carriedFiles, carriedOutputs) = try Self.carried(site, shards: shards, published: published)
        guard try manifest.removeGone(pages: pagePaths, copies: copied.map(\.0), carried: carriedFiles,
                                      carriedElsewhere: carriedOutputs)
        else { return .planMore(nil) }
        counters.count(.machinesDigested, by: units.computedMachines.count)
        let bundles = Self.bundles(site, units: units, context: context, signatures: signatures, racySignatures: racySignatures,
                                   goneSlugs: goneSlugs)
        // A full build stages against the spare's whole manifest: the published one but at the lag's paths.
        var spare = trees.spare
        if published == nil, case .lagging(let lag)? = spare, let known = trees.published {
            var manifest = try known.all()
            for (path, held) in lag { manifest[path] = held }
            spare = .whole(manifest)
        }
        var outputs = Outputs(publisher: publisher, target: manifest.target, published: published, spare: spare,
                              changes: manifest.changes, pagePaths: pagePaths, copyPaths: copied.map(\.0), units: units,
                              store: trees.store, readsKnown: readsKnown, changedUnits: changedUnits ?? [], bundles: bundles,
                              staleShards: shards.stale, notice: trees.notice)
        outputs.publishedRecent = storedRecent
        outputs.shardRows.recent = shards.recent
        if site.plan.carried.isEmpty { outputs.shardRows.folders = site.search.shards?.shards.map(\.folder) }
        return .done(outputs)
    }

    /// The published outputs that are not planned and not gone: listed where the plan is of
    /// every machine, counted where it carried some (the carried machines' outputs, the search
    /// index's files the shard marks did not read).
    private static func carried(_ site: PlannedSite, shards: ShardMarks, published: StoredManifest?) throws
        -> (files: [String], count: Int) {
        var files = shards.accounted
        var count = site.plan.carried.values.reduce(0) { $0 + $1.pages + $1.copies } + shards.accountedElsewhere
        // The first-answer files change only with the pages they index: the index step writes those that do.
        if site.indexer != nil, let published {
            if site.plan.carried.isEmpty {
                files += try published.outputs(under: SearchWords.folder).keys
            } else {
                count += try published.count(under: SearchWords.folder)
            }
        }
        return (files, count)
    }

    /// The units whose digests differ from the stored ones, and the machines gone since. Only
    /// the units of machines digested now are read from the store, the carried ones' are not.
    static func changedUnits(_ site: PlannedSite, units: inout UnitDigests, store: BuildStore) throws
        -> (units: [String]?, goneSlugs: [String]) {
        let slugs = Set(site.content.machines.map(\.slug))
        let goneSlugs = try store.machineSlugs().subtracting(slugs).sorted()
        let machines = units.computedMachines.map { site.content.machines[$0].slug } + goneSlugs
        let stored = try store.units(keys: UnitDigests.siteKeys,
                                     prefixes: UnitDigests.sitePrefixes + machines.flatMap(UnitDigests.keyPrefixes(ofMachine:)))
        var changed = stored.compactMap { units.computed[$0.key] != $0.value ? $0.key : nil }
            + units.computed.keys.filter { stored[$0] == nil && !$0.hasPrefix(UnitDigests.pagePrefix) }
        // A tag's pages are compared only where its list changed.
        let prefixes = UnitDigests.pagePrefixes(changed: changed)
        if !prefixes.isEmpty {
            units.addTagPages(under: prefixes)
            let pages = try store.units(keys: [], prefixes: prefixes)
            changed += pages.compactMap { units.computed[$0.key] != $0.value ? $0.key : nil }
            changed += units.computed.keys.filter { key in
                pages[key] == nil && prefixes.contains { key.hasPrefix($0) }
            }
        }
        return (changed, goneSlugs)
    }

    /// What a machine's units depend on besides its bundle: site.yaml (photo sizes, limits,
    /// Markdown settings) and the versions of what turns images and bundles into outputs.
    static func unitContext(_ content: SiteContent, vipsVersion: String) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(TeardownVersion.build)
        fingerprint.add(content.config.source)
        fingerprint.add(ImageProcessor.pipelineVersion)
        fingerprint.add(vipsVersion)
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
    static func digest(of shard: SearchShards.Shard, pages: [String], _ target: OutputTargets,
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
