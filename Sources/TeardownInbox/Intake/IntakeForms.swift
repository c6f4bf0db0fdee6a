import Foundation

/// A comment as a visitor posts it.
public struct CommentForm: Sendable {
    public var machine: String
    public var part: String?
    public var author: String
    public var body: String

    public init(machine: String, part: String?, author: String, body: String) {
        self.machine = machine
        self.part = part
        self.author = author
        self.body = body
    }
}

/// A photo's details as a visitor posts them; the image itself streams into an upload.
public struct PhotoForm: Sendable {
    public var machine: String
    public var part: String?
    public var author: String
    public var caption: String?
    /// Unticked, the photo's GPS position is removed before it is stored.
    public var shareLocation: Bool

    public init(machine: String, part: String?, author: String, caption: String?, shareLocation: Bool) {
        self.machine = machine
        self.part = part
        self.author = author
        self.caption = caption
        self.shareLocation = shareLocation
    }
}

/// What became of a submission.
public enum IntakeOutcome: Sendable, Equatable {
    /// Durably in the inbox, or held for moderation.
    case received(id: String, held: Bool)
    /// Refused, with a reason the sender can act on.
    case refused(String)
    /// Not stored, through no fault of the sender's: the inbox could not be written.
    case failed(String)
}
