import TeardownBase
import TeardownContent
import TeardownMedia

/// The units of one machine, its parts and its manual.
struct MachineUnits: Sendable {
    /// By `InputUnit.MachineAspect`.
    package let keys: [String]
    package let parts: [(keys: [String], digests: [ContentDigest])]
    package let manual: ManualUnits
    package let all: [String: ContentDigest]

    package init(_ machine: Machine, manual book: RenderedManual?, images: ProcessedImages, download: MachineDownload?,
         sitemap listed: [URLPath]) {
        let prefix = "m/" + machine.slug + "/"
        let (head, counts) = Self.headAndCounts(machine, images)
        var cover = Fingerprint()
        cover.add(images.cover(of: machine)?.key)
        var downloaded = Fingerprint()
        downloaded.add(download?.bundle.sha256)
        downloaded.add(download?.bundle.size ?? 0)
        var commentsDownloaded = Fingerprint()
        commentsDownloaded.add(download?.comments.sha256)
        commentsDownloaded.add(download?.comments.size ?? 0)
        let photos = Self.photos(machine.head.photos, images)
        parts = machine.outlines.map { part in
            let partPrefix = "p/" + machine.slug + "/" + part.slug + "/"
            return ([partPrefix + "text", partPrefix + "photos", partPrefix + "description", partPrefix + "facts"],
                    [part.textDigest, Self.photos(part.photos, images), part.descriptionDigest, part.source])
        }
        var feed = Self.recentComments(machine)
        var gallery = Fingerprint()
        gallery.add(photos)
        for part in parts { gallery.add(part.digests[1]) }
        feed.add(gallery.digest)
        // In `InputUnit.MachineAspect` order: head, text, photos, counts, cover, download, feed,
        var sitemap = Fingerprint()
        for page in listed { sitemap.add(page.value) }
        // comments download, gallery, description, sitemap.
        let digests = [head.digest, machine.head.textDigest, photos, counts.digest, cover.digest, downloaded.digest, feed.digest,
                       commentsDownloaded.digest, gallery.digest, machine.head.descriptionDigest, sitemap.digest]
        keys = MachineKeys.aspects.map { prefix + $0 }
        manual = book.map { ManualUnits($0, scope: machine.slug) } ?? ManualUnits(empty: machine.slug)
        var all = Dictionary(uniqueKeysWithValues: zip(keys, digests))
        for part in parts {
            for (key, digest) in zip(part.keys, part.digests) { all[key] = digest }
        }
        all.merge(manual.all) { first, _ in first }
        self.all = all
    }

    /// The machine's head (its parts, their sources and layers) and its counts.
    private static func headAndCounts(_ machine: Machine, _ images: ProcessedImages) -> (head: Fingerprint, counts: Fingerprint) {
        var head = Fingerprint()
        head.add(machine.slug)
        head.add(machine.folder.displayPath)
        head.add(machine.source)
        var counts = Fingerprint()
        counts.add(machine.head.commentCount)
        counts.add(machine.head.photos.count)
        for part in machine.outlines {
            head.add(part.slug)
            // The rest of part.yaml is the part's facts, a unit of its own.
            head.add(part.name)
            head.add(part.layer.image.displayPath)
            head.add(part.layer.z)
            head.add(part.layer.x)
            head.add(part.layer.y)
            head.add(part.layer.size.width)
            head.add(part.layer.size.height)
            // A layer's size and mask are read from the image, so the image is part of the head:
            // its processed key names its bytes.
            head.add(images.layer(part.layer.image.absolutePath)?.key)
            // Whether the layer is published as an optimized copy changes its URL.
            head.add(images.isOptimized(part.layer))
            counts.add(part.commentCount)
            counts.add(part.photos.count)
        }
        return (head, counts)
    }

    /// What feeds show of the newest comments: each one's place gives its discussion page.
    private static func recentComments(_ machine: Machine) -> Fingerprint {
        var feed = Fingerprint()
        for recent in machine.head.recent.all {
            feed.add(recent.part ?? -1)
            feed.add(recent.position)
            feed.add(recent.comment.id)
            feed.add(recent.comment.author)
            feed.add(recent.comment.date.text)
            feed.add(recent.comment.body.text)
        }
        return feed
    }

    private static func photos(_ photos: [Photo], _ images: ProcessedImages) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(photos.count)
        for photo in photos {
            fingerprint.add(photo.file.name)
            fingerprint.add(photo.caption)
            fingerprint.add(photo.author)
            fingerprint.add(photo.date?.text)
            fingerprint.add(photo.credit)
            fingerprint.add(photo.license)
            fingerprint.add(photo.showsLocation)
            // The processed image's key names its sizes, metadata and files.
            fingerprint.add(images.photo(photo.file.absolutePath)?.key)
        }
        return fingerprint.digest
    }
}
