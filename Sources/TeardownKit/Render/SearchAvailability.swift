/// Whether the built site gets a search index, and if not, why.
public enum SearchAvailability: Sendable, Equatable {
    case available
    case unavailable(String)

    var isAvailable: Bool { self == .available }
}
