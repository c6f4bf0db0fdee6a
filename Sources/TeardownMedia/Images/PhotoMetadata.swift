/// What a photo's EXIF says that a photo page shows: the camera, when it was taken and, only
/// with the sidecar's consent, where. Read before the published copies drop all of it.
package struct PhotoMetadata: Sendable, Hashable, Codable {
    /// "Make Model", without the make twice when the model repeats it.
    package let camera: String?
    /// "YYYY-MM-DD hh:mm" from DateTimeOriginal.
    package let taken: String?
    package let latitude: Double?
    package let longitude: Double?

    package init(camera: String?, taken: String?, latitude: Double?, longitude: Double?) {
        self.camera = camera
        self.taken = taken
        self.latitude = latitude
        self.longitude = longitude
    }

    package init(_ header: Vips.Header) {
        let make = Self.value(header.make), model = Self.value(header.model)
        switch (make, model) {
        case (let make?, let model?):
            camera = model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased())
                ? model : "\(make) \(model)"
        case (let make?, nil): camera = make
        case (nil, let model?): camera = model
        case (nil, nil): camera = nil
        }
        taken = Self.value(header.taken).flatMap(Self.exifDate)
        latitude = Self.coordinate(header.latitude, reference: header.latitudeRef, negative: "S")
        longitude = Self.coordinate(header.longitude, reference: header.longitudeRef, negative: "W")
    }

    /// libvips renders an EXIF field as "value (value, Type, n components, m bytes)": the part
    /// before the parenthesis is the value.
    package static func value(_ raw: String) -> String? {
        var text = Substring(raw)
        if let open = text.range(of: " (", options: .backwards) { text = text[..<open.lowerBound] }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// "2024:05:17 14:03:22" -> "2024-05-17 14:03".
    package static func exifDate(_ text: String) -> String? {
        let parts = text.split(separator: " ")
        guard parts.count >= 1 else { return nil }
        let day = parts[0].split(separator: ":")
        guard day.count == 3, day.allSatisfy({ Int($0) != nil }), day[0] != "0000" else { return nil }
        var result = day.joined(separator: "-")
        if parts.count > 1 {
            let time = parts[1].split(separator: ":")
            if time.count >= 2 { result += " \(time[0]):\(time[1])" }
        }
        return result
    }

    /// "48/1 51/1 756/25" degrees, minutes, seconds as rationals -> 48.858400.
    package static func coordinate(_ raw: String, reference: String, negative: String) -> Double? {
        guard let text = value(raw) else { return nil }
        let numbers = text.split(separator: " ").compactMap { part -> Double? in
            let fraction = part.split(separator: "/")
            guard let numerator = Double(fraction[0]) else { return nil }
            guard fraction.count == 2 else { return numerator }
            guard let denominator = Double(fraction[1]), denominator != 0 else { return nil }
            return numerator / denominator
        }
        guard numbers.count == 3 else { return nil }
        let degrees = numbers[0] + numbers[1] / 60 + numbers[2] / 3600
        let sign = value(reference)?.uppercased().hasPrefix(negative) == true ? -1.0 : 1.0
        return degrees * sign
    }
}
