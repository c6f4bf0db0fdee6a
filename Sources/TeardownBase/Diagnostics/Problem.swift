/// Everything a user can get wrong in a site, as values that tests can compare.
public enum Problem: Hashable, Sendable, Codable {
    /// Longest name of a machine or part: published files add to it (`downloads/<name>.zip`),
    /// and a file name over 255 bytes cannot be written.
    package static let maxNameLength = 200

    case unreadableFile(reason: String)
    case notUTF8
    case yamlSyntax(String)
    case notAMapping(expected: String)
    case missingKey(String)
    case wrongType(key: String, expected: String)
    /// A key no setting has, with the keys its mapping takes.
    case unknownKey(String, known: [String])
    case invalidValue(key: String, reason: String)
    case invalidDate(key: String, value: String)
    case missingFile(String)
    /// A layer image not in the part folder, and the image there its name is closest to.
    case missingLayerImage(String, closest: String? = nil)
    case unreadableImage(String, reason: String)
    case invalidName(String)
    case unclosedFrontMatter
    case authorLength(String, min: Int, max: Int)
    case commentLength(Int, min: Int, max: Int)
    case photoSidecarWithoutPhoto(String)
    case photoSkipped(reason: String)
    case templateSyntax(String)
    case missingPartial(String)
    case missingTemplate(String)
    case themeNotFound(String)
    case outputFailed(reason: String)
    /// A cache of the site (.teardown-cache) could not be written; the output is left as it was.
    case cacheFailed(reason: String)
    case summaryLine
    case summaryMissingPage(String)
    case notInSummary
    case brokenLink(String, reason: String)
    /// Raw HTML that may run script, left out of Markdown (`unsafe_html: false`).
    case rawHTMLLeftOut(String)
    /// Raw HTML kept where it would make the page invalid: a block in a line of text, a `<dt>` outside a `<dl>`.
    case rawHTMLMisplaced(String)
    /// An image of a visitor's text named by a path: a comment shows the photos sent with it.
    case communityImageLeftOut(String)
    /// An mdBook directive Teardown does not expand (`{{#title}}`, a preprocessor's own).
    case unsupportedDirective(String)
    case directiveFailed(String, reason: String)
    case reservedName(String, use: String)
    case searchUnavailable(reason: String)
    case searchFailed(reason: String)
    case shadowedPage(by: String)
    case notPublished(reason: String)
    case unsafeArchiveEntry(String, reason: String)
    case unreadableArchive(reason: String)
    case bundleTwice(String)
    case specValue(label: String, value: String, reason: String)
    /// A quantity of another kind than its label asks for ("Width: 300 kg").
    case specDimension(label: String, value: String, measures: String, expected: String)
    case symbolicLink
    case sameNameButCase(String, String)

    /// Why a link in content/ is refused, also as the reason a linked image cannot be read.
    public static let symbolicLinkReason = "it is a symbolic link, which could lead out of content/"

    /// The human-readable text after `error:` or `warning:`.
    public var message: String {
        switch self {
        case .unreadableFile(let reason): "cannot read file: \(reason)"
        case .notUTF8: "file is not valid UTF-8 text"
        case .yamlSyntax(let problem): "YAML syntax error: \(problem)"
        case .notAMapping(let expected): "expected a mapping of \(expected)"
        case .missingKey(let key): "missing required key '\(key)'"
        case .wrongType(let key, let expected): "'\(key)' must be \(expected)"
        case .unknownKey(let key, let known): Self.unknownKey(key, known: known)
        case .invalidValue(let key, let reason): "invalid '\(key)': \(reason)"
        case .invalidDate(let key, let value):
            "'\(key)' is not an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ): '\(value)'"
        case .missingFile(let name): "missing \(name)"
        case .missingLayerImage(let name, let closest):
            "layer image '\(name)' does not exist in the part folder" + (closest.map { ": did you mean '\($0)'?" } ?? "")
        case .unreadableImage(let name, let reason): "cannot read image '\(name)': \(reason)"
        case .invalidName(let name): Self.invalidName(name)
        case .unclosedFrontMatter: "front matter starts with '---' but has no closing '---' line"
        case .authorLength(let author, let min, let max):
            "author '\(author)' must be \(min)-\(max) characters long"
        case .commentLength(let count, let min, let max):
            "comment is \(count) characters long; the limit is \(min)-\(max)"
        case .photoSidecarWithoutPhoto(let name): "sidecar has no photo named '\(name)' beside it"
        case .photoSkipped(let reason): "photo skipped: \(reason)"
        case .templateSyntax(let problem): "template syntax error: \(problem)"
        case .missingPartial(let name): "partial '\(name)' does not exist in the theme"
        case .missingTemplate(let name): "the theme has no template '\(name).mustache'"
        case .themeNotFound(let name): Self.themeNotFound(name)
        case .outputFailed(let reason): "cannot write output: \(reason)"
        case .cacheFailed(let reason): "cannot write the site's cache: \(reason)"
        case .summaryLine:
            "expected a link like '- [Title](page.md)', a '# Part' heading or '---'; the line is ignored"
        case .summaryMissingPage(let link): "SUMMARY.md lists '\(link)', which does not exist; it is shown as a draft"
        case .notInSummary: "page is not listed in SUMMARY.md: it is published, but not in the navigation"
        case .brokenLink(let link, let reason): "broken link '\(link)': \(reason)"
        case .rawHTMLLeftOut(let what):
            "raw HTML \(what) is left out: only the HTML that cannot run script is kept (set 'unsafe_html: true' in site.yaml to trust it all)"
        case .rawHTMLMisplaced(let what):
            "raw HTML \(what) is left out: it would make the page invalid HTML (a block element goes on a line of its own, a <dt> or <dd> inside a <dl>)"
        case .communityImageLeftOut(let address):
            "the image '\(address)' is left out: a comment's pictures are the photos sent with it (an image on another site is shown as a link to it)"
        case .unsupportedDirective(let name):
            "'{{#\(name)}}' is not a directive Teardown knows (include, rustdoc_include and playground are); it is shown as written"
        case .directiveFailed(let name, let reason): "'{{#\(name)}}' is left out: \(reason)"
        case .reservedName(let name, let use): "'\(name)' is reserved for \(use); rename the file or folder"
        case .searchUnavailable(let reason):
            "search is unavailable: \(reason); the search page says so (set 'search: false' to turn search off)"
        case .searchFailed(let reason): "the search index could not be made: \(reason)"
        case .shadowedPage(let other): "\(other) is already this folder's page; this file is not published"
        case .notPublished(let reason): "file not published: \(reason)"
        case .unsafeArchiveEntry(let entry, let reason): "entry '\(entry)' \(reason); the archive is not read"
        case .unreadableArchive(let reason): "cannot read the bundle archive: \(reason)"
        case .bundleTwice(let name):
            "machine '\(name)' is both a folder and \(name).zip; keep one of them"
        case .symbolicLink:
            "not read: \(Self.symbolicLinkReason); Teardown does not follow links, so copy the file or folder here"
        case .sameNameButCase(let name, let other):
            "'\(name)' and '\(other)' differ only in case; their pages would overwrite each other on a disk that ignores case, so rename one"
        case .specDimension(let label, let value, let measures, let expected):
            "spec '\(label)' value '\(value)' is \(measures), but '\(label)' asks for \(expected): is the unit a slip? "
                + "The page shows it as written"
        case .specValue(let label, let value, let reason):
            "spec '\(label)' value '\(value)' is not a quantity: \(reason). The page shows it as written, without conversions"
        }
    }

    private static func unknownKey(_ key: String, known: [String]) -> String {
        "unknown key '\(key)' is ignored"
            + (KeySuggestion.closest(to: key, in: known).map { ": did you mean '\($0)'?" } ?? (known.isEmpty ? "" : "."))
            + (known.isEmpty ? "" : " Valid keys are " + known.sorted().joined(separator: ", ") + ".")
    }

    private static func invalidName(_ name: String) -> String {
        name.utf8.count > maxNameLength
            ? "'\(name.prefix(40))…' is not a valid name: it is \(name.utf8.count) characters long; the limit is \(maxNameLength)"
            : "'\(name)' is not a valid name: use letters, digits, '-' and '_' (it becomes part of a URL)"
    }

    private static func themeNotFound(_ name: String) -> String {
        name == "default" ? "the built-in default theme is missing from this installation"
            : "theme '\(name)' not found: there is no folder Themes/\(name)"
    }
}
