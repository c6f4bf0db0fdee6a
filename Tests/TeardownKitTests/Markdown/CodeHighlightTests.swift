import Testing
@testable import TeardownContent

@Suite("Code highlighting")
struct CodeHighlightTests {
    let markdown = MarkdownRenderer()

    func html(_ language: String, _ code: String, trust: MarkdownRenderer.Trust = .designer(allowHTML: false)) -> String {
        markdown.render("```\(language)\n\(code)\n```\n", trust: trust)
    }

    @Test("A shell session: the command, its options, variables, strings and comments")
    func shell() {
        let page = html("sh", "$ teardown build --site \"my site\" $HOME # the demo\ncat a | grep -v b")
        #expect(page.contains("$ <span class=\"hl-command\">teardown</span> build <span class=\"hl-option\">--site</span> "
                              + "<span class=\"hl-string\">&quot;my site&quot;</span> <span class=\"hl-variable\">$HOME</span> "
                              + "<span class=\"hl-comment\"># the demo</span>"), "\(page)")
        #expect(page.contains("<span class=\"hl-command\">grep</span> <span class=\"hl-option\">-v</span>"), "\(page)")
    }

    @Test("YAML keys, strings, numbers, literals and comments")
    func yaml() {
        let page = html("yaml", "name: \"Desk fan\"\ncanvas: {width: 800, height: 600}\nmoderation: true # held\ntags: [fan]")
        #expect(page.contains("<span class=\"hl-key\">name</span>: <span class=\"hl-string\">&quot;Desk fan&quot;</span>"), "\(page)")
        #expect(page.contains("{<span class=\"hl-key\">width</span>: <span class=\"hl-number\">800</span>,"), "\(page)")
        #expect(page.contains("<span class=\"hl-keyword\">true</span> <span class=\"hl-comment\"># held</span>"), "\(page)")
    }

    @Test("JSON keys are told from string values")
    func json() {
        let page = html("json", "{\"id\": \"c-1\", \"count\": 2, \"ok\": false}")
        #expect(page.contains("<span class=\"hl-key\">&quot;id&quot;</span>: <span class=\"hl-string\">&quot;c-1&quot;</span>"), "\(page)")
        #expect(page.contains("<span class=\"hl-number\">2</span>") && page.contains("<span class=\"hl-keyword\">false</span>"), "\(page)")
    }

    @Test("Markdown: front matter as YAML, headings, code and link targets")
    func markdownSource() {
        let page = html("markdown", "---\nauthor: \"Ada\"\n---\n# Title\nSee `make` and [the manual](manual.md).")
        #expect(page.contains("<span class=\"hl-keyword\">---</span>\n<span class=\"hl-key\">author</span>"), "\(page)")
        #expect(page.contains("<span class=\"hl-heading\"># Title</span>"), "\(page)")
        #expect(page.contains("<span class=\"hl-string\">`make`</span>") && page.contains("(<span class=\"hl-variable\">manual.md</span>)"), "\(page)")
    }

    @Test("C: keywords, calls, numbers and a comment that spans lines")
    func cCode() {
        let page = html("c", "static int read(int pin) { /* one\ntwo */ return 0x1F; }")
        #expect(page.contains("<span class=\"hl-keyword\">static</span> <span class=\"hl-keyword\">int</span> <span class=\"hl-command\">read</span>("), "\(page)")
        #expect(page.contains("<span class=\"hl-comment\">/* one</span>\n<span class=\"hl-comment\">two */</span>"), "\(page)")
        #expect(page.contains("<span class=\"hl-number\">0x1F</span>"), "\(page)")
    }

    @Test("Code is escaped as before, an unknown language stays plain, and a comment's code is highlighted safely")
    func escaping() {
        #expect(html("text", "a <b> & \"c\"") == "<pre><code class=\"language-text\">a &lt;b&gt; &amp; &quot;c&quot;\n</code></pre>\n")
        let page = html("sh", "echo \"</code><script>alert(1)</script>\"", trust: .community)
        #expect(!page.contains("<script>") && page.contains("&lt;script&gt;"), "\(page)")
        #expect(page.components(separatedBy: "</code>").count == 2, "\(page)")
        // Without a language, nothing changes.
        #expect(html("", "$ make") == "<pre><code>$ make\n</code></pre>\n")
    }

    // The limit catches a loop that never ends, not slowness: alone this takes half a second,
    // but a test waits for a thread of the pool while 270 others run on two cores, and a
    // one-minute limit once ran out in CI that way.
    @Test("Every short line and random lines in every language end, and keep their text", .timeLimit(.minutes(10)))
    func anyInputEnds() {
        let languages = ["sh", "yaml", "json", "markdown", "c", "swift"].compactMap(CodeHighlighter.Language.init(name:))
        let printable = (32...126).map { UInt8($0) }
        var lines: [[UInt8]] = printable.flatMap { a in printable.map { b in [a, b] } }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("$-#:\"'`()[]{}|;&/*\\ ,.0x9aZ_=\t\n".utf8)
        for _ in 0..<3000 {
            lines.append((0..<Int.random(in: 1...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for line in lines {
            for language in languages {
                let text = CodeHighlighter.text(of: CodeHighlighter.highlight(line, as: language))
                #expect(text == line, "\(line)")
            }
        }
    }
}
