/// For every planned output, a digest of everything it is made from: the content it shows,
/// the templates it is rendered with, site.yaml, and the version of Teardown. Two builds that
/// give an output the same digest write the same bytes, so the second one can skip it.
struct OutputFingerprints: Sendable {
    let pages: [ContentDigest]
    let copies: [ContentDigest]

    init(plan: SitePlan, content: SiteContent, theme: Theme, baseURL: String) {
        var site = Fingerprint()
        site.add(TeardownVersion.current)
        site.add(content.config.source)
        site.add(baseURL)
        let siteDigest = site.digest

        // Per-machine digests are computed once: every page of a machine reuses them.
        let machines = ParallelMap.map(content.machines) { MachineDigests($0) }
        var navigation = Fingerprint()
        for page in content.manual {
            navigation.add(page.slug)
            navigation.add(page.title)
        }
        let manualDigest = navigation.digest

        pages = ParallelMap.map(plan.pages) { entry in
            var fingerprint = Fingerprint()
            fingerprint.add(siteDigest)
            fingerprint.add(entry.url.value)
            switch entry.page {
            case .catalog:
                fingerprint.add(theme.digest(of: "catalog"))
                for machine in machines {
                    fingerprint.add(machine.stack)
                    fingerprint.add(machine.counts)
                }
            case .machine(let index, let number):
                let machine = machines[index]
                fingerprint.add(theme.digest(of: "machine"))
                fingerprint.add(machine.stack)
                fingerprint.add(machine.counts)
                fingerprint.add(machine.discussion)
                fingerprint.add(number)
            case .part(let machineIndex, let partIndex, let number):
                let machine = machines[machineIndex]
                fingerprint.add(theme.digest(of: "part"))
                fingerprint.add(machine.stack)
                fingerprint.add(machine.parts[partIndex])
                fingerprint.add(number)
            case .manual(let index):
                fingerprint.add(theme.digest(of: "manual"))
                fingerprint.add(manualDigest)
                if let index {
                    fingerprint.add(content.manual[index].body.text)
                }
            case .notFound:
                fingerprint.add(theme.digest(of: "not-found"))
            }
            return fingerprint.digest
        }
        copies = ParallelMap.map(plan.copies) { copy in
            var fingerprint = Fingerprint()
            fingerprint.add(copy.source.absolutePath)
            if let stamp = FileSystem.stamp(of: copy.source.absolutePath) {
                fingerprint.add(stamp)
            }
            return fingerprint.digest
        }
    }
}

/// Digests of one machine's content, grouped by which pages show it.
private struct MachineDigests: Sendable {
    /// machine.yaml and every part's name and layer: shown on all of the machine's pages.
    let stack: ContentDigest
    /// Comment and photo counts per part: the machine page and the catalog show them.
    let counts: ContentDigest
    /// The machine's description, comments and photos.
    let discussion: ContentDigest
    /// Each part's own description, comments and photos.
    let parts: [ContentDigest]

    init(_ machine: Machine) {
        var stack = Fingerprint()
        stack.add(machine.slug)
        stack.add(machine.source)
        var counts = Fingerprint()
        counts.add(machine.community.comments.count)
        counts.add(machine.community.photos.count)
        for part in machine.parts {
            stack.add(part.slug)
            stack.add(part.source)
            // A layer's size is read from the image, so the image is an input of the stack.
            stack.add(FileSystem.stamp(of: part.layer.image.absolutePath) ?? ContentDigest(high: 0, low: 0))
            counts.add(part.community.comments.count)
            counts.add(part.community.photos.count)
        }
        self.stack = stack.digest
        self.counts = counts.digest
        discussion = Self.digest(machine.description, machine.community)
        parts = machine.parts.map { part in
            var fingerprint = Fingerprint()
            fingerprint.add(part.slug)
            fingerprint.add(Self.digest(part.description, part.community))
            return fingerprint.digest
        }
    }

    private static func digest(_ description: MarkdownSource?, _ community: Community) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(description?.text)
        fingerprint.add(community.comments.count)
        for comment in community.comments {
            fingerprint.add(comment.id)
            fingerprint.add(comment.author)
            fingerprint.add(comment.date.text)
            fingerprint.add(comment.body.text)
        }
        fingerprint.add(community.photos.count)
        for photo in community.photos {
            fingerprint.add(photo.file.name)
            fingerprint.add(photo.caption)
            fingerprint.add(photo.author)
            fingerprint.add(photo.date?.text)
            fingerprint.add(photo.credit)
            fingerprint.add(photo.license)
            fingerprint.add(photo.showsLocation)
        }
        return fingerprint.digest
    }
}
