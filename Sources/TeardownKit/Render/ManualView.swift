/// A rendered manual as a page reads it. Taking it reads its navigation (tree, titles,
/// files, anchors); a page's own text is read only where its HTML or headings are used.
struct ManualView {
    private let book: RenderedManual
    let reads: ReadSet

    init(book: RenderedManual, reads: ReadSet) {
        self.book = book
        self.reads = reads
    }

    var manual: Manual { book.manual }
    var base: URLPath { book.base }
    var anchors: [[String]] { book.anchors }
    var entryOfPage: [Int: Int] { book.entryOfPage }
    var positionOfPage: [Int: Int] { book.positionOfPage }

    func url(of page: Int) -> URLPath { book.url(of: page) }
    func printID(of page: Int) -> String { book.printID(of: page) }

    func document(_ page: Int) -> MarkdownDocument {
        reads.record(.manual(book.machine, .page(page)))
        return book.documents[page]
    }

    func html(of page: Int, at url: URLPath, forPrint: Bool = false) -> String {
        reads.record(.manual(book.machine, .page(page)))
        return book.html(of: page, at: url, forPrint: forPrint)
    }
}
