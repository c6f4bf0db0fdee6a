import Hummingbird

/// A request's context: the client's address, for the rate limit only; it is never stored.
struct IntakeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let address: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        address = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
