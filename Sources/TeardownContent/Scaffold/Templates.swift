import TeardownBase

/// The text of scaffolded files.
package enum Templates {
    package static func siteYAML(title: String) -> String {
        var heading = YAMLFields()
        heading.add("title", title)
        return """
        # Site settings. Every key is optional; the manual's \"Site settings\" page lists them all.
        \(heading.text)description: "Machines you can take apart."
        base_url: "http://127.0.0.1:8080/"
        language: en
        theme: default
        # Let designers' descriptions and the manual use raw HTML (community comments never can).
        unsafe_html: false
        comments_per_page: 5
        limits:
          author_min: 1
          author_max: 40
          comment_min: 1
          comment_max: 200

        """
    }

    package static func manualIndex(title: String) -> String {
        """
        ---
        title: Help
        ---
        # Help

        Welcome to \(title). Every machine in this catalog can be taken apart: open a machine,
        pick a part, read what it does and what others say about it.

        """
    }

    package static let themesReadme = """
        # Themes

        Put a file at the same path as in Teardown's default theme (for example
        `Themes/default/templates/part.mustache` or `Themes/default/assets/style.css`) to
        override it. Name another theme with `theme:` in content/site.yaml to use
        `Themes/<name>/`; files it lacks come from the default theme.

        """

    /// A two-part machine whose layers stack into a box with a lid.
    package static func machine(name: String) -> [(String, String)] {
        let title = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return [
            ("machine.yaml", """
                name: "\(title)"
                summary: "A box with a lid: replace these parts with your machine's."
                canvas: {width: 400, height: 300}
                tags: [example]
                designer: "You"
                license: "CC BY-SA 4.0"

                """),
            ("description.md", "The designer's description of the whole machine. **Markdown** works here.\n"),
            ("parts/box/part.yaml", """
                name: Box
                layer: {image: box.svg, z: 0}
                specs:
                  Width: "300 mm"
                  Mass: "1.2 kg"
                tags: [body]

                """),
            ("parts/box/description.md", "The box holds everything else.\n"),
            ("parts/box/box.svg", """
                <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
                  <rect x="50" y="110" width="300" height="160" rx="8" fill="#c9a66b" stroke="#5a4220" stroke-width="4"/>
                </svg>

                """),
            ("parts/lid/part.yaml", """
                name: Lid
                layer: {image: lid.svg, z: 1}
                tags: [body]

                """),
            ("parts/lid/description.md", "The lid keeps the dust out.\n"),
            ("parts/lid/lid.svg", """
                <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
                  <rect x="40" y="80" width="320" height="36" rx="6" fill="#8c6a3a" stroke="#5a4220" stroke-width="4"/>
                </svg>

                """),
            ("parts/lid/comments/first-look.md", """
                ---
                author: "Visitor"
                date: 2024-01-01
                ---
                Comments are Markdown files with an author and a date.

                """),
        ]
    }
}
