import SimCore

extension KeyedDecodingContainer {
    /// Decodes a duration written as `"15m"`, `"30s"`, ... or keeps `fallback` when absent.
    func duration(_ key: Key, default fallback: SimDuration) throws -> SimDuration {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return fallback }
        do { return try SimDuration(parsing: text) } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.description)
        }
    }

    func value<T: Decodable>(_ key: Key, default fallback: T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? fallback
    }

    /// A work model that may be written in part: absent or null, `base`;
    /// present, its missing keys from `base`
    /// (``WorkModel/init(from:missingKeysFrom:)``).
    func workModel(_ key: Key, missingKeysFrom base: WorkModel) throws -> WorkModel {
        guard contains(key), try !decodeNil(forKey: key) else { return base }
        return try WorkModel(from: try superDecoder(forKey: key), missingKeysFrom: base)
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
