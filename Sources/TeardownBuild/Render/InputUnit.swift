/// One piece of what outputs are made from. Rendering an output records every unit it reads
/// (`ReadSet`), through the views it reads content by (`ContentView`); the build digests each
/// unit from its value and renders again only outputs that read a unit whose digest changed.
///
/// Machines, parts and manual pages are numbered as this build loaded them; the build names
/// them by slug when it stores what an output read.
package enum InputUnit: Hashable, Sendable {
    /// site.yaml, the base URL and the version of Teardown.
    case settings
    /// Whether the site has a search index, and its shards.
    case search
    /// A template with every partial and parent it reaches.
    case template(String)
    /// Which machines there are, in order.
    case machineList
    /// The image a page without one of its own is shared with.
    case sharedImage
    /// The site's own pages the sitemaps list, and how many sitemap files each machine's take.
    case sitemap
    /// One list of the site index (`Listing`): which items it holds, in order, and what a
    /// page shows of the list as a whole (names, counts). What a page shows of an item it reads
    /// through the item's machine, so a list's unit changes only when its own items do: a part
    /// moved to another tag changes the lists of the tags it left and joined, not every list.
    case listing(Listing)
    case machine(Int, MachineAspect)
    case part(Int, Int, PartAspect)
    /// The site's manual (nil) or a machine's.
    case manual(Int?, ManualAspect)

    /// The lists of the site index, by their number in it.
    package enum Listing: Hashable, Sendable {
        /// Every tag's name and counts (the tags page).
        case tags
        /// A tag's names and counts, which its first page says.
        case tag(Int)
        /// One page of a tag's list (by number, from 1): the items it shows, the tag's names and
        /// how many pages the list takes. A part moved to another tag changes the pages of the
        /// two lists from where it left and joined them, not the pages before.
        case tagPage(Int, Int)
        /// Every letter's key and count (the A-Z tabs).
        case letters
        case letter(Int)
        /// site.yaml's collections with their machines.
        case collections
    }

    package enum MachineAspect: UInt8, Sendable {
        /// machine.yaml, and every part's slug, name and layer: what draws the machine.
        case head
        /// The designer's description and the comments.
        case text
        case photos
        /// Comment and photo counts, the machine's and every part's.
        case counts
        /// The cover the catalog card and shared links show.
        case cover
        /// The bundle's download.
        case download
        /// What feeds show of it: the newest comments of the machine and its parts, and every
        /// photo. The site's feed reads this one unit per machine, not the text and photos of
        /// every part (two units a part, digested on every comment).
        case feed
        /// The download of its comments.
        case commentsDownload
        /// Every photo of the machine and its parts: their count and dates, without the
        /// comment counts that `counts` holds too. catalog.json reads this, so a comment
        /// leaves it as it was.
        case gallery
        /// The designer's description alone, which machine.json shows without the comments.
        case description
        /// The machine's pages its sitemap lists.
        case sitemap
    }

    package enum PartAspect: UInt8, Sendable {
        /// The part's description and comments.
        case text
        case photos
        /// The description alone.
        case description
        /// What part.yaml says beyond the name and layer that draw the machine: its tags and
        /// specifications, which the part's own pages and files show. A part moved to another
        /// tag changes this, not its machine's head, so the lists its machine's other parts
        /// are in are not rendered again.
        case facts
    }

    package enum ManualAspect: Hashable, Sendable {
        /// Its tree, titles, files, anchors and assets: what every page of it shows.
        case navigation
        /// One page's text.
        case page(Int)
    }
}

/// The units one output read while it was rendered. One output is rendered on one thread, so
/// it needs no lock.
package final class ReadSet: @unchecked Sendable {
    package private(set) var units: Set<InputUnit> = []

    package init() {}

    package func record(_ unit: InputUnit) { units.insert(unit) }

    package func record(_ units: Set<InputUnit>) { self.units.formUnion(units) }
}
