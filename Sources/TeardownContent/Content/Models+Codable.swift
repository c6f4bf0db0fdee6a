import Foundation
import TeardownBase

// The stored form of loaded content, for the content cache (`BinaryEncoder`). A date is stored
// as written and read again. Enums with associated values get a coding of their own, which the
// positional coder needs.

extension Manual.Entry.Kind: Codable {
    /// A page's index, or a negative number for the other kinds.
    public init(from decoder: Decoder) throws {
        let code = try decoder.singleValueContainer().decode(Int.self)
        switch code {
        case 0...: self = .page(code)
        case -1: self = .draft
        case -2: self = .part
        case -3: self = .separator
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an entry kind"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .page(let index): try container.encode(index)
        case .draft: try container.encode(-1)
        case .part: try container.encode(-2)
        case .separator: try container.encode(-3)
        }
    }
}

/// A value stored as one string and read back by `parse`; what does not parse is damage.
private func decodeText<Value>(_ decoder: Decoder, as what: String, _ parse: (String) -> Value?) throws -> Value {
    guard let value = parse(try decoder.singleValueContainer().decode(String.self)) else {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not \(what)"))
    }
    return value
}

extension ContentDigest: Codable {
    public init(from decoder: Decoder) throws { self = try decodeText(decoder, as: "a digest") { ContentDigest(hex: Substring($0)) } }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension ISODate: Codable {
    public init(from decoder: Decoder) throws { self = try decodeText(decoder, as: "a date") { ISODate($0) } }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension SpecReading: Codable {
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self = try container.decode(Bool.self) ? .quantity(try container.decode(SpecQuantity.self)) : .text
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .text: try container.encode(false)
        case .quantity(let quantity):
            try container.encode(true)
            try container.encode(quantity)
        }
    }
}

extension SpecQuantity.Form: Codable {
    /// A kind number, then the numbers of the form.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let kind = try container.decode(Int.self)
        let values = try container.decode([Double].self)
        switch (kind, values.count) {
        case (0, 1): self = .single(values[0])
        case (1, 2): self = .range(values[0], values[1])
        case (2, _): self = .dimensions(values)
        case (3, 2): self = .times(values[0], values[1])
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a quantity"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .single(let value): try container.encode(0); try container.encode([value])
        case .range(let low, let high): try container.encode(1); try container.encode([low, high])
        case .dimensions(let values): try container.encode(2); try container.encode(values)
        case .times(let count, let value): try container.encode(3); try container.encode([count, value])
        }
    }
}

extension Manual: Codable {
    private enum CodingKeys: String, CodingKey { case folder, pages, entries, order, listedCount, assets }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(folder: try container.decode(SourceFile.self, forKey: .folder),
                  pages: try container.decode([ManualPage].self, forKey: .pages),
                  entries: try container.decode([Entry].self, forKey: .entries),
                  order: try container.decode([Int].self, forKey: .order),
                  listedCount: try container.decode(Int.self, forKey: .listedCount),
                  assets: try container.decode([String].self, forKey: .assets))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(folder, forKey: .folder)
        try container.encode(pages, forKey: .pages)
        try container.encode(entries, forKey: .entries)
        try container.encode(order, forKey: .order)
        try container.encode(listedCount, forKey: .listedCount)
        try container.encode(assets, forKey: .assets)
    }
}
