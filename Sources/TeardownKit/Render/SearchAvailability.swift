/// Whether the built site gets a search index, in which shards, and if not, why.
public enum SearchAvailability: Sendable, Equatable {
    case available(SearchShards)
    case unavailable(String)

    var isAvailable: Bool { shards != nil }

    var shards: SearchShards? {
        if case .available(let shards) = self { return shards }
        return nil
    }
}
