import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia

extension PageRenderer {
    func renderMachine(_ index: Int, page number: Int, at url: URLPath) -> String {
        let machine = content.machines[index]
        return theme.render("machine", model(url, title: Self.discussionTitle(machine.name, page: number), description: machine.summary,
                                             image: images.cover(of: machine).map { sharingImage($0, of: machine) },
                                             scripts: ["machine.js"] + intakeScript, feed: machine,
                                             filters: filters(number == 1 ? "machine" : nil, comments: !machine.community.comments.isEmpty,
                                                              machine: machine),
                                             machinePage(index, page: number, at: url)))
    }

    func renderPart(_ partIndex: Int, of machineIndex: Int, page number: Int, at url: URLPath) -> String {
        let machine = content.machines[machineIndex]
        let part = machine.parts[partIndex]
        let partURL = Routes.part(part, of: machine)
        let page = partPage(partIndex, of: machineIndex, page: number, at: url)
        return theme.render("part", model(url, title: Self.discussionTitle("\(part.name) — \(machine.name)", page: number),
                                          description: "\(part.name), a part of the \(machine.name)",
                                          image: part.community.photos.first.flatMap { photoSharingImage($0, owner: partURL) }
                                              ?? images.cover(of: machine).map { sharingImage($0, of: machine) },
                                          scripts: (page.unitSwitch ? ["units.js"] : []) + intakeScript, feed: machine,
                                          filters: filters(number == 1 ? "part" : nil, comments: !part.community.comments.isEmpty,
                                                           machine: machine),
                                          page))
    }

    func machinePage(_ index: Int, page number: Int, at url: URLPath) -> MachinePageModel {
        let machine = content.machines[index]
        let base = Routes.machine(machine)
        let parts = machine.partsByName.map { part in
            PartLinkModel(name: part.name, url: Routes.part(part, of: machine).relative(from: url),
                          counts: Plural.list((part.community.comments.count, "comment"), (part.community.photos.count, "photo")))
        }
        let photos = machine.community.photos.map { photoModel($0, owner: base, at: url) }
        let gallery = machine.photoCount > 0
            ? LinkModel(title: machine.photoCount == 1 ? "The photo of the \(machine.name)"
                        : "All \(Plural.count(machine.photoCount, "photo")) of the \(machine.name)",
                        url: Routes.gallery(base).relative(from: url))
            : nil
        return MachinePageModel(
            name: machine.name, searchTitle: number > 1 ? Self.discussionTitle(machine.name, page: number) : nil, summary: machine.summary, designer: machine.designer, license: machine.license,
            updated: machine.updated?.day, tags: tagLinks(machine.tags, at: url), stack: stack(of: index).stack(prefix: prefix(index, at: url)), parts: parts,
            discussion: discussion(machine.description, machine.community.comments, designer: machine.designer,
                                   base: base, page: number, at: url),
            photos: photos, hasPhotos: !photos.isEmpty, gallery: gallery,
            data: Routes.machineData(machine).relative(from: url),
            download: download(of: machine).map {
                LinkModel(title: "Download the bundle (ZIP, \(Self.humanSize($0.size)))",
                          url: Routes.download(machine).relative(from: url))
            },
            commentsDownload: machine.commentCount == 0 ? nil : commentsDownload(of: machine).map {
                LinkModel(title: "its \(Plural.count(machine.commentCount, "comment")) (ZIP, \(Self.humanSize($0.size)))",
                          url: Routes.commentsDownload(machine).relative(from: url))
            },
            feed: Routes.feed(of: machine).relative(from: url),
            manual: machine.manual.isEmpty ? nil
                : LinkModel(title: "\(machine.name) manual", url: Routes.manual(of: machine).relative(from: url)),
            intake: intakeForms(machine, part: nil, at: url))
    }

    /// machine.json: the layers and, for Details & Discuss and Photos, what the pages show.
    func machineData(_ index: Int, at url: URLPath) -> MachineData {
        MachineData(content.machines[index], images: images, at: url, notes: { description in
            MachineData.Notes(description: description.map { html(ofDescription: $0, keep: true) } ?? "")
        }, slides: { photos, owner in
            photos.compactMap { photo in
                guard let largest = images.photo(photo.file.absolutePath)?.variants.last else { return nil }
                return MachineData.Slide(
                    image: Routes.photoFile(photo, under: owner, PhotoFiles.variant(photo, largest.width, "webp")).relative(from: url),
                    width: largest.width, height: largest.height,
                    caption: [photo.caption ?? alt(photo), credit(photo)].compactMap { $0 }.joined(separator: " · "),
                    page: Routes.photo(photo, under: owner).relative(from: url))
            }
        })
    }

    /// discussion.json: each discussion's count and newest comments, as the pages render them.
    func discussionData(_ index: Int, at url: URLPath) -> DiscussionData {
        DiscussionData(content.machines[index]) { comments in
            DiscussionData.Thread(comments: comments.count, latestComments: comments.prefix(DiscussionData.latestComments).map {
                DiscussionData.CommentData(author: $0.author, date: $0.date.day, html: html(of: $0))
            })
        }
    }

    func partPage(_ partIndex: Int, of machineIndex: Int, page number: Int, at url: URLPath) -> PartPageModel {
        let machine = content.machines[machineIndex]
        let part = machine.parts[partIndex]
        let base = Routes.part(part, of: machine)
        let photos = part.community.photos.map { photoModel($0, owner: base, at: url) }
        let specs = specRows(part.specs)
        let layout = stack(of: machineIndex)
        return PartPageModel(
            name: part.name,
            searchTitle: number > 1 ? Self.discussionTitle("\(part.name) — \(machine.name)", page: number) : nil,
            machine: LinkModel(title: machine.name, url: Routes.machine(machine).relative(from: url)),
            backdrop: layout.backdrop(prefix: prefix(machineIndex, at: url), excluding: partIndex),
            layer: layout.layer(partIndex, url: Routes.layer(
                part, of: machine, optimized: images.isOptimized(part.layer)).relative(from: url)),
            specs: specs, hasSpecs: !specs.isEmpty,
            unitSwitch: specs.contains { $0.conversions.contains { $0.system != nil } }, tags: tagLinks(part.tags, at: url),
            discussion: discussion(part.description, part.community.comments, designer: machine.designer,
                                   base: base, page: number, at: url),
            photos: photos, hasPhotos: !photos.isEmpty,
            gallery: photos.isEmpty ? nil : LinkModel(title: "Gallery", url: Routes.gallery(base).relative(from: url)),
            intake: intakeForms(machine, part: part, at: url))
    }

    /// The forms to post to `teardown intake`, on pages of machines sync can add to.
    func intakeForms(_ machine: MachineView, part: PartView?, at url: URLPath) -> IntakeFormModel? {
        guard let intake = content.config.intakeURL, machine.archive == nil else { return nil }
        let limits = content.config.limits
        return IntakeFormModel(
            commentAction: intake + "/forms/comment", photoAction: intake + "/forms/photo",
            machine: machine.slug, part: part?.slug, back: baseURL + url.value.dropFirst(),
            authorMin: limits.authorMin, authorMax: limits.authorMax, commentMin: limits.commentMin, commentMax: limits.commentMax,
            photoMax: Self.humanSize(limits.photoMaxBytes), held: content.config.moderation)
    }

    /// The designer's description first (on the first page only), then comments newest first.
    func discussion(_ description: MarkdownSource?, _ comments: [Comment], designer: String?,
                            base: URLPath, page number: Int, at url: URLPath) -> DiscussionModel {
        let perPage = content.config.commentsPerPage
        let pageCount = Pagination.pageCount(comments.count, perPage)
        let slice = comments.dropFirst((number - 1) * perPage).prefix(perPage)
        var entries = slice.map { comment in
            EntryModel(author: comment.author, date: comment.date.day, dateTime: comment.date.text,
                       html: html(of: comment), isDesigner: false, anchor: Self.anchor(of: comment))
        }
        if number == 1, let description {
            entries.insert(EntryModel(author: designer ?? "Designer", date: "", dateTime: "",
                                      html: html(ofDescription: description),
                                      isDesigner: true, anchor: nil), at: 0)
        }
        return DiscussionModel(entries: entries, hasEntries: !entries.isEmpty, hasComments: !comments.isEmpty,
                               commentCount: comments.isEmpty ? nil : Plural.count(comments.count, "comment"),
                               pagination: Self.pagination(pageCount, current: number) {
                                   Routes.discussion(base, page: $0).relative(from: url)
                               })
    }

    /// The id of a comment's entry on its page, which feeds link to.
    package static func anchor(of comment: Comment) -> String {
        let safe = comment.id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }
        return "comment-" + (safe && !comment.id.isEmpty ? comment.id : String(ContentDigest(of: comment.id).description.prefix(12)))
    }
}
