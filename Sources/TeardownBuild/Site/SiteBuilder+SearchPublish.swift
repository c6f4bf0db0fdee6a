import TeardownBase
import TeardownContent

/// The page first, the index after: a build that changes pages of a published site and
/// re-indexes shards of its search index publishes twice. The first publish swaps in the pages
/// with the published shards and first-answer files kept as they are (a changed page's
/// Pagefind result shows its old excerpt until the second); the second indexes the stale shards
/// from the tree just published and swaps them in with the search page that names them and
/// the changed pages' first-answer entries (`deferFirstAnswer`). At 10,000 parts Pagefind's
/// re-index of one shard is about half a second, which a comment no longer waits for.
///
/// Between the two, the store records the published shards as lagging (no search layout) and
/// the changed pages as pending for the first answer, so a build killed there leaves a whole
/// site whose search lags one build, and the next build finds the shards stale by their pages'
/// digests and indexes them (`ShardMarks`), and indexes the pending pages for the first answer.
extension SiteBuilder {
    /// Keeps the published files of the shards to index again in `outputs` and returns those
    /// shards, to be indexed after the pages are published; none when the build publishes once:
    /// a site not published yet, or one where only the index changes.
    func deferIndex(_ outputs: inout Outputs) throws -> [Outputs.Shard] {
        guard let published = outputs.published, !outputs.staleShards.isEmpty else { return [] }
        var kept: [String: ContentDigest] = [:]
        for stale in outputs.staleShards {
            kept.merge(try published.outputs(under: stale.shard.folder + "/")) { first, _ in first }
        }
        guard outputs.changes.contains(where: { kept[$0] == nil }) else { return [] }
        for (path, digest) in kept {
            outputs.target[path] = digest
            outputs.changes.remove(path)
        }
        defer { outputs.staleShards = [] }
        return outputs.staleShards
    }

    /// The second publish: `pagesPublished` is told the pages are out, the `deferred` shards are
    /// indexed from them and swapped in, and `done` runs after (not when the index could not be
    /// made: the inputs then stay unremembered, so the next build looks and mends it); returns
    /// what was published.
    func publishIndex(_ site: PlannedSite, deferred: [Outputs.Shard], after first: Outputs, clock: inout StepClock,
                      progress: BuildProgress.Handler?, pagesPublished: () -> Void, done: () -> Void) throws(BuildFailure) -> Outputs? {
        pagesPublished()
        do throws(BuildFailure) {
            var indexed = try clock.run(.index) { try indexAfterPublish(site, deferred: deferred, after: first, progress: progress) }
            if first.answersAfterPages, var outputs = indexed {
                let owners = Set(first.firstAnswer?.pending ?? [])
                try clock.run(.firstAnswer) { try firstAnswer(site, &outputs, owners: owners) }
                indexed = outputs
            }
            try clock.run(.publishSearch) {
                guard let indexed else { return }
                try publish(indexed, searchLayout: ShardMarks.layout(site))
                done()
            }
            return indexed
        } catch {
            throw error.afterPublishing()
        }
    }

    /// The second publish's outputs: the tree the first publish made, with the `deferred`
    /// shards indexed again from its pages and the search page rendered again if it names them.
    func indexAfterPublish(_ site: PlannedSite, deferred: [Outputs.Shard], after first: Outputs,
                           progress: BuildProgress.Handler?) throws -> Outputs? {
        let trees = try first.publisher.recover(opened: (first.store, nil))
        // Not known only if the store lost the first publish's record: the next build finds the shards stale.
        guard let published = trees.published, trees.readsArePublished else { return nil }
        var outputs = Outputs(publisher: first.publisher, target: OutputTargets(base: published), published: published,
                              spare: trees.spare, changes: [], pagePaths: first.pagePaths, copyPaths: first.copyPaths,
                              units: first.units, store: trees.store, readsKnown: true, changedUnits: [],
                              bundles: BuildStore.Bundles(context: first.bundles.context, digested: [], unsettled: [], goneSlugs: []),
                              staleShards: deferred, notice: nil)
        outputs.firstAnswer = BuildStore.FirstAnswerChange(files: first.firstAnswer?.files)
        outputs.publishedRecent = first.publishedRecent
        outputs.shardRows = first.shardRows
        // The spare is brought up to the first publish before the stale shards' files are taken
        // out of the target: staging would unlink them one by one, and `index` clears each
        // shard's folder whole anyway.
        let spare = try outputs.publisher.openSpare(holding: outputs.spare, store: outputs.store)
        _ = try outputs.publisher.stage(outputs.target, published: published, spare: spare, changes: [])
        for stale in deferred {
            for path in try published.outputs(under: stale.shard.folder + "/").keys {
                outputs.target[path] = nil
                outputs.changes.insert(path)
            }
        }
        try index(site, &outputs, progress: progress, afterPages: true)
        try renderSearchPage(site, &outputs)
        return outputs
    }
}
