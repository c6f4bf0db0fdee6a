import TeardownContent

/// The site index as a page reads it: each list through an accessor that records it as the
/// unit it is (`InputUnit.Listing`), so a page depends on the lists it shows, not on the index.
package struct IndexView {
    let index: SiteIndex
    let reads: ReadSet

    /// Every tag, for its name and counts; a tag's items are read through `tag(_:)`.
    package var tags: [SiteIndex.Tag] {
        reads.record(.listing(.tags))
        return index.tags
    }

    /// A tag, for its names and counts; its items are read through `tag(_:page:)`.
    package func tag(_ number: Int) -> SiteIndex.Tag {
        reads.record(.listing(.tag(number)))
        return index.tags[number]
    }

    /// A tag, for its names and the items of its page `page`, with how many pages they take.
    package func tag(_ number: Int, page: Int) -> SiteIndex.Tag {
        reads.record(.listing(.tagPage(number, page)))
        return index.tags[number]
    }

    /// Every letter, for its key and count; a letter's parts are read through `letter(_:)`.
    package var letters: [SiteIndex.Letter] {
        reads.record(.listing(.letters))
        return index.letters
    }

    package func letter(_ number: Int) -> SiteIndex.Letter {
        reads.record(.listing(.letter(number)))
        return index.letters[number]
    }

    /// How many files the first answer's words take: a count of the parts, as the letters hold it.
    package var firstAnswerFiles: Int {
        reads.record(.listing(.letters))
        return index.firstAnswerFiles
    }

    package var collections: [SiteIndex.Collection] {
        reads.record(.listing(.collections))
        return index.collections
    }
}
