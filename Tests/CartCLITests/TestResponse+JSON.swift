import CartTestSupport
import Foundation

extension TestResponse {
    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw TestConnection.Failure(description: "not a JSON object: \(text)")
        }
        return object
    }
}
