import Foundation
import GRDB
import TeardownBase

/// The first-answer index's state (`FirstAnswer`): each indexed page with its words
/// (`search_pages`), and each word with the pages holding it and its entry as its file lists it
/// (`search_words`). A build reads the rows of the pages and words it changed, and the entries
/// of the files those words are in; it writes them with the publish, in its transaction.
extension BuildStore {
    /// What a build changes of the index.
    package struct FirstAnswerChange: Sendable {
        /// Everything was indexed again: the rows are replaced whole.
        package var whole = false
        /// The number of words' files the rows are filed under; nil: the site has no search,
        /// and the rows are cleared.
        package var files: Int?
        package var pages: [FirstAnswer.Page] = []
        package var gonePages: [Int64] = []
        /// Each changed word's row, or nil when no page holds it now.
        package var words: [String: Word?] = [:]
        /// Pages changed by a publish whose entries wait for the next one (`deferIndex`): a
        /// build that stops between the two leaves them to the next build.
        package var pending: [String] = []

        package struct Word: Sendable {
            package let file: Int
            package let postings: [FirstAnswer.Posting]
            package let entry: String
        }
    }

    /// The number of words' files the stored rows are filed under; nil when there are none.
    package func firstAnswerFiles() throws -> Int? {
        try reading { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'first-answer'").flatMap { Int($0) } }
    }

    /// The pages a publish left for the next to index (`FirstAnswerChange.pending`).
    package func firstAnswerPending() throws -> [String] {
        try reading { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'first-answer-pending'")
                .map { $0.split(separator: "\n").map(String.init) } ?? []
        }
    }

    /// The stored pages at `paths`, by path.
    package func searchPages(at paths: some Sequence<String>) throws -> [String: FirstAnswer.Page] {
        try reading { db in
            var found: [String: FirstAnswer.Page] = [:]
            let one = try db.cachedStatement(sql: "SELECT id, item, ord, words FROM search_pages WHERE path = ?")
            for path in paths {
                guard let row = try Row.fetchOne(one, arguments: [path]) else { continue }
                let id: Int64 = row[0]
                guard id == FirstAnswer.key(of: path) else { throw Damaged(path: self.path, reason: "search_pages row of \(path)") }
                found[path] = FirstAnswer.Page(id: id, path: path, item: row[1], order: UInt8(truncatingIfNeeded: row[2] as Int), words: row[3])
            }
            return found
        }
    }

    /// What a result shows of each page, by key.
    package func searchItems(_ ids: some Sequence<Int64>) throws -> [Int64: String] {
        try reading { db in
            var found: [Int64: String] = [:]
            let one = try db.cachedStatement(sql: "SELECT path, item FROM search_pages WHERE id = ?")
            for id in ids {
                guard let row = try Row.fetchOne(one, arguments: [id]) else { continue }
                let path: String = row[0], item: String = row[1]
                guard FirstAnswer.isItem(item, path: path) else { throw Damaged(path: self.path, reason: "search_pages row of \(path)") }
                found[id] = item
            }
            return found
        }
    }

    /// The pages holding each of `words`, by word; a word no page holds is left out.
    package func searchPostings(_ words: some Sequence<String>) throws -> [String: [FirstAnswer.Posting]] {
        try reading { db in
            var found: [String: [FirstAnswer.Posting]] = [:]
            let one = try db.cachedStatement(sql: "SELECT postings FROM search_words WHERE word = ?")
            for word in words {
                guard let blob = try Data.fetchOne(one, arguments: [word]) else { continue }
                guard let postings = FirstAnswer.postings(blob) else { throw Damaged(path: path, reason: "search_words row of \(word)") }
                found[word] = postings
            }
            return found
        }
    }

    /// The entries of the words in file `file`, by word.
    package func searchEntries(file: Int) throws -> [String: String] {
        try reading { db in
            var found: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT word, entry FROM search_words WHERE file = ?", arguments: [file]) {
                let word: String = row[0], entry: String = row[1]
                guard FirstAnswer.isEntry(entry, of: word) else { throw Damaged(path: path, reason: "search_words row of \(word)") }
                found[word] = entry
            }
            return found
        }
    }

    /// The words starting with `key` (a letter or digit; nil: every word, for "other"), with how many pages hold each.
    package func vocabulary(startingWith key: String?) throws -> [String: Int] {
        try reading { db in
            var found: [String: Int] = [:]
            let rows = if let key, let scalar = key.unicodeScalars.first, let next = UnicodeScalar(scalar.value + 1) {
                try Row.fetchAll(db, sql: "SELECT word, pages FROM search_words WHERE word >= ? AND word < ?",
                                 arguments: [key, String(next)])
            } else {
                try Row.fetchAll(db, sql: "SELECT word, pages FROM search_words")
            }
            for row in rows { found[row[0]] = row[1] }
            return found
        }
    }

    /// Writes `change`, inside the publish's transaction.
    static func record(_ db: Database, _ change: FirstAnswerChange?) throws {
        guard let change, let files = change.files else {
            try db.execute(sql: """
                DELETE FROM search_pages; DELETE FROM search_words;
                DELETE FROM meta WHERE name IN ('first-answer', 'first-answer-pending')
                """)
            return
        }
        if change.pending.isEmpty {
            try db.execute(sql: "DELETE FROM meta WHERE name = 'first-answer-pending'")
        } else {
            try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('first-answer-pending', ?)",
                           arguments: [change.pending.joined(separator: "\n")])
        }
        if change.whole { try db.execute(sql: "DELETE FROM search_pages; DELETE FROM search_words") }
        let forget = try db.cachedStatement(sql: "DELETE FROM search_pages WHERE id = ?")
        for id in change.gonePages { try forget.execute(arguments: [id]) }
        let page = try db.cachedStatement(sql: "INSERT OR REPLACE INTO search_pages(id, path, item, ord, words) VALUES (?, ?, ?, ?, ?)")
        for row in change.pages {
            try page.execute(arguments: [row.id, row.path, row.item, Int(row.order), row.words])
        }
        let word = try db.cachedStatement(sql: "INSERT OR REPLACE INTO search_words(word, file, postings, pages, entry) VALUES (?, ?, ?, ?, ?)")
        let drop = try db.cachedStatement(sql: "DELETE FROM search_words WHERE word = ?")
        for (text, row) in change.words {
            if let row {
                try word.execute(arguments: [text, row.file, FirstAnswer.blob(row.postings), row.postings.count, row.entry])
            } else {
                try drop.execute(arguments: [text])
            }
        }
        try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES ('first-answer', ?)", arguments: [String(files)])
    }
}
