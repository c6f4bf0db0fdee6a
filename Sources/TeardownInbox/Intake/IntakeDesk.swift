import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia
import TeardownBuild

/// Turns posted forms into inbox submissions. Each one is checked by the same review sync
/// applies (lengths, the target machine and part, the image's type, size and pixels), so what
/// intake accepts, sync accepts. The site's content is read again when it changes.
public final class IntakeDesk: Sendable {
    public let siteRoot: String
    public let inbox: IntakeInbox
    /// The built site, whose catalog.json changes after every build.
    package let output: String
    private let loaded: Locked<Loaded>
    /// Image checks decode pixels: a few at a time keeps memory bounded under many uploads.
    private let imageChecks = AsyncGate(limit: 2)
    /// Comments received lately, by a digest of what they say, with the id each was given: a
    /// sender whose connection dropped before the answer, and who posts again, gets the same id
    /// instead of a second copy.
    private let recent = Locked<[ContentDigest: (id: String, held: Bool, at: Date)]>([:])
    /// How long a comment is remembered for that.
    package static let retryWindow: TimeInterval = 600

    private struct Loaded {
        package var review: SubmissionReview
        package var stamp: [ContentDigest?]
        package var checked: Date
    }

    /// Told when the site, read again after a change, no longer loads: submissions are then
    /// reviewed against the last content that did, and the operator should know.
    private let onReloadFailure: @Sendable (BuildFailure) -> Void

    /// Loads the site's content; a site with errors cannot take submissions.
    public init(siteRoot: String, inbox: IntakeInbox, output: String? = nil,
                onReloadFailure: @escaping @Sendable (BuildFailure) -> Void = { _ in }) throws(BuildFailure) {
        self.siteRoot = siteRoot
        self.inbox = inbox
        self.onReloadFailure = onReloadFailure
        self.output = output ?? siteRoot + "/public"
        let stamp = Self.stamp(siteRoot: siteRoot, output: self.output)
        let review = try Self.load(siteRoot)
        loaded = Locked(Loaded(review: review, stamp: stamp, checked: Date()))
    }

    public var config: SiteConfig { current().content.config }

    // MARK: Comments

    public func submit(_ form: CommentForm, now: Date = Date()) async -> IntakeOutcome {
        // Reading the site again, when it changed, waits on the disk.
        let review = await BlockingPool.run { self.current() }
        if let problem = Self.targetProblem(machine: form.machine, part: form.part) { return .refused(problem) }
        let author = form.author.trimmingCharacters(in: .whitespacesAndNewlines)
        let body = form.body.replacingOccurrences(of: "\r\n", with: "\n")
        var said = Fingerprint()
        for field in [form.machine, form.part ?? "", author, body] { said.add(field) }
        let key = said.digest
        if let earlier = recent.withLock({ recent -> (id: String, held: Bool, at: Date)? in
            recent = recent.filter { now.timeIntervalSince($0.value.at) < Self.retryWindow }
            return recent[key]
        }) {
            return .received(id: earlier.id, held: earlier.held)
        }
        let id = IntakeID.make(now: now)
        let name = SubmissionFiles.comment(id)
        let data = SubmissionFiles.comment(machine: form.machine, part: form.part, author: author, date: ISODate.rfc3339(now),
                                           body: body)
        let submission = InboxSubmission(id: id, files: [name], sha256: [name: SHA256Hex.of(data)])
        if case .reject(let reason) = review.review(submission, files: [name: data]) {
            return .refused(Self.forSender(reason, id: id))
        }
        do throws(InboxFailure) {
            let upload = try inbox.beginUpload(id: id)
            try upload.write(name, data)
            try await inbox.publish(upload, hold: review.content.config.moderation)
        } catch {
            return .failed(Self.unstored)
        }
        let held = review.content.config.moderation
        recent.withLock { $0[key] = (id, held, now) }
        return .received(id: id, held: held)
    }

    // MARK: Photos

    /// An upload to stream the image into, as `<id>.upload`; then call `submit(_:upload:)`.
    public func beginPhoto(now: Date = Date()) throws(InboxFailure) -> IntakeUpload {
        try inbox.beginUpload(id: IntakeID.make(now: now))
    }

    /// The name `beginPhoto`'s upload expects the image under.
    public static func imageUploadName(_ upload: IntakeUpload) -> String { upload.id + ".upload" }

    public func submit(_ form: PhotoForm, upload: IntakeUpload, now: Date = Date()) async -> IntakeOutcome {
        let review = await BlockingPool.run { self.current() }
        let limits = review.content.config.limits
        let refuse = { (reason: String) -> IntakeOutcome in
            self.discard(upload)
            return .refused(reason)
        }
        if let problem = Self.targetProblem(machine: form.machine, part: form.part) { return refuse(problem) }
        let staged = upload.path(of: Self.imageUploadName(upload))
        let image: Data, format: ImageFormat
        switch Self.stagedPhoto(staged, maxBytes: limits.photoMaxBytes) {
        case .success(let photo): (image, format) = photo
        case .failure(let problem): return refuse(problem.reason)
        }
        let imageName = upload.id + "." + format.fileExtension
        let detailsName = SubmissionFiles.photo(upload.id)
        let yaml = Self.photoDetails(form, imageName: imageName, now: now)
        let submission = InboxSubmission(id: upload.id, files: [detailsName, imageName], sha256: [:])
        let shared = form.shareLocation, uploadName = Self.imageUploadName(upload)
        // Everything that holds a copy of the image or decodes it happens a few uploads at a time.
        let stopped: IntakeOutcome? = await imageChecks.run {
            let stored: Data
            if shared {
                stored = image
            } else if let scrubbed = LocationScrubber.scrub(image, format: format) {
                stored = scrubbed
            } else {
                return .refused("the photo's metadata could not be read to remove its location; "
                                + "tick \u{201C}share location\u{201D} or send a copy without metadata")
            }
            if case .reject(let reason) = review.review(submission, files: [detailsName: yaml, imageName: stored]) {
                return .refused(Self.forSender(reason, id: upload.id))
            }
            do throws(InboxFailure) {
                if shared {
                    try IntakeInbox.durableRename(staged, to: upload.path(of: imageName), folder: nil)
                    upload.adopt(imageName, replacing: uploadName)
                } else {
                    try upload.write(imageName, stored)
                    upload.forget(uploadName)
                }
                try upload.write(detailsName, yaml)
            } catch {
                return .failed(Self.unstored)
            }
            return nil
        }
        if let stopped {
            discard(upload)
            return stopped
        }
        do throws(InboxFailure) {
            try await inbox.publish(upload, hold: review.content.config.moderation)
        } catch {
            discard(upload)
            return .failed(Self.unstored)
        }
        return .received(id: upload.id, held: review.content.config.moderation)
    }

    public static let unstored = "the submission could not be stored; please try again later"

    /// The photo's details file, as sync reads it: a caption of only spaces is none.
    private static func photoDetails(_ form: PhotoForm, imageName: String, now: Date) -> Data {
        let caption = form.caption?.trimmingCharacters(in: .whitespacesAndNewlines)
        return SubmissionFiles.photo(machine: form.machine, part: form.part,
                                     author: form.author.trimmingCharacters(in: .whitespacesAndNewlines),
                                     date: ISODate.rfc3339(now), caption: caption?.isEmpty == false ? caption : nil,
                                     location: form.shareLocation, file: imageName)
    }

    private struct PhotoProblem: Error { let reason: String }

    /// The uploaded photo, when one was sent, within the size limit, of a kind a catalog publishes.
    private static func stagedPhoto(_ staged: String, maxBytes: Int) -> Result<(Data, ImageFormat), PhotoProblem> {
        guard let size = FileSystem.size(of: staged), size > 0,
              let image = try? Data(contentsOf: URL(fileURLWithPath: staged), options: .alwaysMapped)
        else { return .failure(PhotoProblem(reason: "no photo was sent")) }
        guard size <= maxBytes else { return .failure(PhotoProblem(reason: "the photo is \(size) bytes; the limit is \(maxBytes)")) }
        guard let format = ImageFormat.sniff(image), [.jpeg, .png, .webp].contains(format) else {
            return .failure(PhotoProblem(reason: "the photo must be a JPEG, PNG or WebP image"))
        }
        return .success((image, format))
    }


    /// Drops an upload that will not be submitted.
    public func discard(_ upload: IntakeUpload) { FileSystem.discard(upload.folder) }

    // MARK: Content

    /// The review for the content as it is now: read again when site.yaml, the machines folder
    /// or the built catalog changed, looked at no more than once a second.
    private func current() -> SubmissionReview {
        let (review, stale) = loaded.withLock { state -> (SubmissionReview, Bool) in
            guard Date().timeIntervalSince(state.checked) > 1 else { return (state.review, false) }
            state.checked = Date()
            return (state.review, Self.stamp(siteRoot: siteRoot, output: output) != state.stamp)
        }
        guard stale else { return review }
        let stamp = Self.stamp(siteRoot: siteRoot, output: output)
        // A site that stops loading keeps taking submissions against the last good content,
        // and says so once for each change that broke it.
        let fresh: SubmissionReview
        do throws(BuildFailure) {
            fresh = try Self.load(siteRoot)
        } catch {
            loaded.withLock { $0.stamp = stamp }
            onReloadFailure(error)
            return review
        }
        loaded.withLock { state in
            state.review = fresh
            state.stamp = stamp
        }
        return fresh
    }

    private static func load(_ siteRoot: String) throws(BuildFailure) -> SubmissionReview {
        let (content, diagnostics) = ContentLoader(siteRoot: siteRoot, archiveCache: CacheLayout(siteRoot: siteRoot).bundles).load()
        guard !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        return SubmissionReview(content: content)
    }

    private static func stamp(siteRoot: String, output: String) -> [ContentDigest?] {
        [siteRoot + "/content/site.yaml", siteRoot + "/content/machines", output + "/catalog.json"].map(FileSystem.stamp(of:))
    }

    /// Slugs go into YAML unquoted, so anything but a name is refused before it is written.
    private static func targetProblem(machine: String, part: String?) -> String? {
        guard TextFile.isValidName(machine), machine.utf8.count <= 200 else { return "unknown machine" }
        if let part, !TextFile.isValidName(part) || part.utf8.count > 200 { return "unknown part" }
        return nil
    }

    /// A review's reason without the file, line and column of a file the sender never saw.
    package static func forSender(_ reason: String, id: String) -> String {
        guard reason.hasPrefix(id + ".") else { return reason }
        var rest = Substring(reason)
        while let colon = rest.firstIndex(of: ":") {
            let next = rest[rest.index(after: colon)...]
            if next.first == " " { return String(next.dropFirst()) }
            rest = next
        }
        return reason
    }
}
