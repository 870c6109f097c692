import SimCore

extension KeyedDecodingContainer {
    /// Decodes a duration written as `"15m"`, `"30s"`, ... or keeps `fallback` when absent.
    func duration(_ key: Key, default fallback: SimDuration) throws -> SimDuration {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return fallback }
        do { return try SimDuration(parsing: text) } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.description)
        }
    }

    /// Rejects keys the type does not know, naming them (with the coding path).
    func rejectUnknownKeys(known: Set<String>) throws {
        for k in allKeys where !known.contains(k.stringValue) {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [k],
                debugDescription: "unknown key \"\(k.stringValue)\"; expected one of \(known.sorted().joined(separator: ", "))"))
        }
    }
}

/// Any string key, so decoders can list the keys actually present.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer {
    mutating func encodeDuration(_ d: SimDuration, forKey key: Key) throws {
        try encode(d.description, forKey: key)
    }
}
