import TeardownContent

/// Whether the built site gets a search index, in which shards, and if not, why.
public enum SearchAvailability: Sendable, Equatable {
    case available(SearchShards)
    case unavailable(String)

    package var isAvailable: Bool { shards != nil }

    package var shards: SearchShards? {
        if case .available(let shards) = self { return shards }
        return nil
    }
}
