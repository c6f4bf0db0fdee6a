import TeardownContent

/// A rendered manual as a page reads it. Taking it reads its navigation (tree, titles,
/// files, anchors); a page's own text is read only where its HTML or headings are used.
package struct ManualView {
    private let book: RenderedManual
    package let reads: ReadSet

    package init(book: RenderedManual, reads: ReadSet) {
        self.book = book
        self.reads = reads
    }

    package var manual: Manual { book.manual }
    package var base: URLPath { book.base }
    package var anchors: [[String]] { book.anchors }
    package var entryOfPage: [Int: Int] { book.entryOfPage }
    package var positionOfPage: [Int: Int] { book.positionOfPage }

    package func url(of page: Int) -> URLPath { book.url(of: page) }
    package func printID(of page: Int) -> String { book.printID(of: page) }

    package func document(_ page: Int) -> MarkdownDocument {
        reads.record(.manual(book.machine, .page(page)))
        return book.documents[page]
    }

    package func html(of page: Int, at url: URLPath, forPrint: Bool = false) -> String {
        reads.record(.manual(book.machine, .page(page)))
        return book.html(of: page, at: url, forPrint: forPrint)
    }
}
