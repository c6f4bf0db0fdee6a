import Foundation
import TeardownBase

/// One build's work on the first-answer index (`FirstAnswer`): the rows to store and the files
/// to write, from the pages in the spare tree.
struct FirstAnswerUpdate {
    typealias Posting = FirstAnswer.Posting

    let files: Int
    let spare: String
    let target: OutputTargets
    private(set) var change: BuildStore.FirstAnswerChange
    /// Each file to write by output path, or nil for one to remove.
    private(set) var outputFiles: [String: String?] = [:]

    init(files: Int, whole: Bool, spare: String, target: OutputTargets) {
        self.files = files
        self.spare = spare
        self.target = target
        change = BuildStore.FirstAnswerChange(whole: whole, files: files)
    }

    /// The text of a page with its discussion's later pages; nil when it is gone or has none to index.
    func text(of owner: String) -> IndexedText? {
        guard target[owner] != nil, let data = FileManager.default.contents(atPath: spare + "/" + owner),
              var text = IndexedText(html: Array(data)) else { return nil }
        let base = String(owner.dropLast("index.html".count))
        var number = 2
        while case let later = base + "discussion/\(number)/index.html", target[later] != nil {
            if let data = FileManager.default.contents(atPath: spare + "/" + later), let more = IndexedText(html: Array(data)) {
                text.merge(more)
            }
            number += 1
        }
        return text
    }

    /// Indexes every page in `owners` (first pages, in a stable order).
    mutating func indexWhole(_ owners: [String]) throws {
        var postings: [String: [Posting]] = [:], items: [Int64: String] = [:]
        // In batches: a page's words are held only until they are filed.
        for start in stride(from: 0, to: owners.count, by: 512) {
            let batch = Array(owners[start..<min(owners.count, start + 512)])
            let texts = ParallelMap.map(batch) { [self] in text(of: $0) }
            for (owner, text) in zip(batch, texts) {
                guard let text else { continue }
                let page = FirstAnswer.page(path: owner, text: text)
                change.pages.append(page)
                items[page.id] = page.item
                for (word, weight) in text.words { postings[word, default: []].append(Posting(page: page.id, weight: weight, order: page.order)) }
            }
        }
        var entries: [Int: [String: String]] = [:], vocabulary: [String: [String: Int]] = [:]
        for (word, list) in postings {
            let file = SearchWords.file(of: word, count: files)
            let entry = FirstAnswer.entry(word, postings: list, items: items)
            change.words[word] = .init(file: file, postings: list, entry: entry)
            entries[file, default: [:]][word] = entry
            vocabulary[SearchWords.vocabularyKey(of: word), default: [:]][word] = list.count
        }
        for (file, held) in entries { outputFiles[SearchWords.wordsPath(file)] = FirstAnswer.wordsFile(held.keys.sorted().map { held[$0]! }) }
        for (key, words) in vocabulary { outputFiles[SearchWords.vocabularyPath(key)] = Self.vocabularyFile(words) }
    }

    /// Indexes the pages in `owners` again against what `store` holds: only the words a page
    /// gained or lost, or whose weight changed, get new postings and entries (every word of a
    /// page whose title or kind changed, as its entries show them).
    mutating func update(_ owners: [String], store: BuildStore) throws {
        guard !owners.isEmpty else { return }
        var (edits, items) = try self.edits(owners, store: store)
        guard !edits.isEmpty else { return }
        let before = try store.searchPostings(edits.keys)
        var after: [String: [Posting]] = [:], listed = Set<Int64>()
        for (word, changes) in edits {
            let edited = Set(changes.map(\.page))
            let list = (before[word] ?? []).filter { !edited.contains($0.page) } + changes.compactMap(\.posting)
            after[word] = list
            listed.formUnion(FirstAnswer.listed(list))
        }
        items.merge(try store.searchItems(listed.filter { items[$0] == nil })) { own, _ in own }
        // A word's entry names its pages by their items: a posting of a page the store does not hold is forged.
        guard listed.allSatisfy({ items[$0] != nil }) else { throw BuildStore.Damaged(path: store.path, reason: "search_words postings") }
        var changedFiles: [Int: [String: String?]] = [:], vocabularyKeys = Set<String>()
        for (word, list) in after {
            let file = SearchWords.file(of: word, count: files)
            let entry = list.isEmpty ? nil : FirstAnswer.entry(word, postings: list, items: items)
            // `.some`: a word no page holds is stored as nil, to be deleted, not left out.
            change.words[word] = .some(entry.map { .init(file: file, postings: list, entry: $0) })
            changedFiles[file, default: [:]][word] = .some(entry)
            let was = before[word]?.count ?? 0
            if was == 0 || list.isEmpty || SearchWords.commonness(was) != SearchWords.commonness(list.count) {
                vocabularyKeys.insert(SearchWords.vocabularyKey(of: word))
            }
        }
        let wordsFile = { (held: [String: String]) in held.isEmpty ? nil : FirstAnswer.wordsFile(held.keys.sorted().map { held[$0]! }) }
        for (file, changed) in changedFiles {
            var held = try store.searchEntries(file: file)
            try checkPublished(SearchWords.wordsPath(file), wordsFile(held), store)
            for (word, entry) in changed { held[word] = entry }
            outputFiles[SearchWords.wordsPath(file)] = .some(wordsFile(held))
        }
        for key in vocabularyKeys {
            var words = try store.vocabulary(startingWith: key == "other" ? nil : key).filter { SearchWords.vocabularyKey(of: $0.key) == key }
            try checkPublished(SearchWords.vocabularyPath(key), words.isEmpty ? nil : Self.vocabularyFile(words), store)
            for (word, list) in after where SearchWords.vocabularyKey(of: word) == key { words[word] = list.isEmpty ? nil : list.count }
            outputFiles[SearchWords.vocabularyPath(key)] = .some(words.isEmpty ? nil : Self.vocabularyFile(words))
        }
    }

    /// The stored rows a file is made from must make the file as published (they are written in
    /// the publish's transaction): rows a restored or copied store forged are damage, not passed on.
    private func checkPublished(_ path: String, _ text: String?, _ store: BuildStore) throws {
        guard target[path] == text.map(ContentDigest.init(of:)) else {
            throw BuildStore.Damaged(path: store.path, reason: "search rows of \(path)")
        }
    }

    /// What changed of each page in `owners` against its stored row: the postings to add (or,
    /// nil, to take out) by word, and the results' items of the pages written.
    private mutating func edits(_ owners: [String], store: BuildStore) throws
        -> ([String: [(page: Int64, posting: Posting?)]], [Int64: String]) {
        let stored = try store.searchPages(at: owners)
        var edits: [String: [(page: Int64, posting: Posting?)]] = [:], items: [Int64: String] = [:]
        for owner in owners {
            let old = stored[owner]
            guard let oldWords = old.map({ FirstAnswer.words($0.words) }) ?? [:] else {
                throw BuildStore.Damaged(path: store.path, reason: "search_pages row of \(owner)")
            }
            guard let text = text(of: owner) else {
                guard let old else { continue }
                change.gonePages.append(old.id)
                for word in oldWords.keys { edits[word, default: []].append((old.id, nil)) }
                continue
            }
            let page = FirstAnswer.page(path: owner, text: text), id = page.id
            let retitled = old?.item != page.item || old?.order != page.order
            guard retitled || page.words != old?.words else { continue }
            items[id] = page.item
            change.pages.append(page)
            for (word, weight) in text.words where retitled || oldWords[word] != weight {
                edits[word, default: []].append((id, Posting(page: id, weight: weight, order: page.order)))
            }
            for word in oldWords.keys where text.words[word] == nil { edits[word, default: []].append((id, nil)) }
        }
        return (edits, items)
    }

    /// Most common first (by `SearchWords.commonness`, so that the file changes only with it), then by word.
    static func vocabularyFile(_ words: [String: Int]) -> String {
        let ranked = words.map { ($0.key, SearchWords.commonness($0.value)) }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }
        return FirstAnswer.vocabularyFile(ranked.map { ($0.0, $0.1) })
    }
}
