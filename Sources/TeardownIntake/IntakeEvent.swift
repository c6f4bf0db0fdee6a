import Logging

/// What the intake service tells its operator, as one swift-log channel shared with the web
/// server's own lines. Events are notices (Hummingbird's routine lines are info and below), or
/// errors; the message is the sentence an operator reads, and the metadata carries the same
/// facts as fields for a log collector.
enum IntakeEvent: Sendable {
    case listening(url: String, inbox: String, held: Bool, tokenSource: String, syncReads: String?)
    case received(id: String, held: Bool)
    case refused(reason: String)
    /// The inbox could not be written: the disk is full, say.
    case failed(reason: String, inbox: String)
    /// The inbox or the site could not be read: a damaged manifest, a site that stopped loading.
    case unreadable(reason: String)
    /// A form with its hidden trap field filled in: a robot's, dropped unseen.
    case trapped
    case limited(address: String)

    func log(to logger: Logger) {
        switch self {
        case .listening(let url, let inbox, let held, let tokenSource, let syncReads):
            logger.notice("Taking submissions on \(url) into \(inbox)\(held ? ", held for moderation" : "")",
                          metadata: ["event": "listening", "url": "\(url)", "inbox": "\(inbox)", "held": "\(held)"])
            if let syncReads {
                logger.notice("Sync reads \(syncReads)", metadata: ["event": "inbox", "url": "\(syncReads)"])
            } else {
                logger.notice("Sync reads \(url)inbox/ with the token in \(tokenSource)",
                              metadata: ["event": "inbox", "url": "\(url)inbox/", "token": "\(tokenSource)"])
            }
        case .received(let id, let held):
            logger.notice("\(held ? "held    " : "received") \(id)", metadata: ["event": held ? "held" : "received", "id": "\(id)"])
        case .refused(let reason):
            logger.notice("refused  \(reason)", metadata: ["event": "refused", "reason": "\(reason)"])
        case .failed(let reason, let inbox):
            logger.error("\(reason): the inbox \(inbox) could not be written",
                         metadata: ["event": "failed", "reason": "\(reason)", "inbox": "\(inbox)"])
        case .unreadable(let reason):
            logger.error("\(reason)", metadata: ["event": "unreadable", "reason": "\(reason)"])
        case .trapped:
            logger.notice("dropped  a form with its trap field filled in", metadata: ["event": "trapped"])
        case .limited(let address):
            logger.info("limited  \(address)", metadata: ["event": "limited", "address": "\(address)"])
        }
    }
}
