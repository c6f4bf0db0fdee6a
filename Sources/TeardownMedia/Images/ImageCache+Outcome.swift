import TeardownBase

extension ImageCache.Outcome {
    /// Whether the outcome has files in its entry folder (a failure has none).
    package var hasFiles: Bool {
        if case .failed = self { return false }
        return true
    }
}

extension ImageCache.Outcome: Codable {
    private enum Kind: Int, Codable { case photo, layer, failed }

    /// A kind, then its value: the positional coder cannot read an enum's synthesized coding.
    package init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        switch try container.decode(Kind.self) {
        case .photo: self = .photo(try container.decode(ProcessedPhoto.self))
        case .layer: self = .layer(try container.decode(ProcessedLayer.self))
        case .failed: self = .failed(.stored(code: try container.decode(Int.self), text: try container.decode(String.self)))
        }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .photo(let photo): try container.encode(Kind.photo); try container.encode(photo)
        case .layer(let layer): try container.encode(Kind.layer); try container.encode(layer)
        case .failed(let failure):
            try container.encode(Kind.failed)
            switch failure {
            case .unreadable(let why): try container.encode(0); try container.encode(why)
            case .empty: try container.encode(1); try container.encode("")
            case .notAnImage: try container.encode(2); try container.encode("")
            case .wrongFormat(let found): try container.encode(3); try container.encode(found.rawValue)
            case .undecodable(let why): try container.encode(4); try container.encode(why)
            // Never kept (`ImageCache.remember`); encoded for completeness.
            case .unwritten(let why): try container.encode(5); try container.encode(why)
            }
        }
    }
}

extension ImageFailure {
    /// A failure from the code and text an outcome stores it as.
    package static func stored(code: Int, text: String) -> ImageFailure {
        switch code {
        case 0: .unreadable(text)
        case 1: .empty
        case 2: .notAnImage
        case 3: .wrongFormat(found: ImageFormat(rawValue: text) ?? .jpeg)
        case 5: .unwritten(text)
        default: .undecodable(text)
        }
    }
}

/// The outcome as the JSON index of earlier versions stored it.
enum LegacyOutcome: Decodable {
    case photo(ProcessedPhoto)
    case layer(ProcessedLayer)
    case failed(ImageFailure)

    package var outcome: ImageCache.Outcome {
        switch self {
        case .photo(let photo): .photo(photo)
        case .layer(let layer): .layer(layer)
        case .failed(let failure): .failed(failure)
        }
    }
}
