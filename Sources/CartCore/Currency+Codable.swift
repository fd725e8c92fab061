#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A currency is written as its ISO 4217 code, `"USD"`. The codes of the built-in table decode,
/// and those of the currencies a decoder's `userInfo[Currency.decodable]` lists
/// (`CartJSON.decoder(currencies:)` sets it).
extension Currency: Codable {
    /// The `userInfo` key of the currencies outside the built-in table that a decoder accepts,
    /// a `[Currency]`.
    public static let decodable = CodingUserInfoKey(rawValue: "cart.currencies")!

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        if let listed = (decoder.userInfo[Self.decodable] as? [Currency])?.first(where: { $0.isNamed(by: code) }) {
            self = listed
            return
        }
        do {
            self = try Currency(code: code)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: error.description
                    + " A currency outside the built-in table decodes with CartJSON.decoder(currencies:).")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
