#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The encoder and decoder settings behind every JSON shape the project writes: keys sorted
/// (stable output), slashes unescaped. Amounts are decimal strings in their currency and
/// instants ISO 8601 text in UTC, whatever the encoder's own strategies say, because each type
/// writes them itself.
public enum CartJSON {
    /// An encoder for the project's JSON shapes, one line per value.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for the project's JSON shapes. A currency is written as its code alone, so a
    /// store currency outside the built-in table (made with `Currency(code:minorUnitExponent:symbol:)`)
    /// decodes only when it is among `currencies`; pass the store's, `try service.settings().currency`.
    public static func decoder(currencies: [Currency] = []) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[Currency.decodable] = currencies
        return decoder
    }
}

extension KeyedEncodingContainer {
    /// Writes an amount as its decimal string (`"12.99"`); its currency is written beside it.
    mutating func encodeAmount(_ money: Money, forKey key: Key) throws {
        try encode(money.decimalString, forKey: key)
    }

    /// Writes an instant as ISO 8601 text in UTC with milliseconds when they are not zero.
    mutating func encodeInstant(_ date: Date, forKey key: Key) throws {
        try encode(UTCCalendar.iso8601(date), forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Reads an amount written by `encodeAmount`, exactly, in `currency`.
    func decodeAmount(_ currency: Currency, forKey key: Key) throws -> Money {
        let text = try decode(String.self, forKey: key)
        do {
            // `decimalString` writes a negative amount (one a caller made) with a minus sign,
            // which input amounts never take: it is read back as written.
            guard text.hasPrefix("-"), text.utf8.count > 1 else { return try Money(parsing: text, currency: currency) }
            // The smallest amount is the one whose magnitude does not fit in 64 bits.
            let smallest = Money(minorUnits: .min, currency: currency)
            if text == smallest.decimalString { return smallest }
            let magnitude = try Money(parsing: String(text.dropFirst()), currency: currency)
            return Money(minorUnits: -magnitude.minorUnits, currency: currency)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.description)
        }
    }

    /// Reads an instant written by `encodeInstant` (or any instant `UTCCalendar.parse` takes).
    func decodeInstant(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = UTCCalendar.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(text.displayable)' is not an ISO 8601 instant")
        }
        return date
    }
}
