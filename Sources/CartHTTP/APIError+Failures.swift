import CartCore
import HTTPServer

extension APIError {
    /// The one table from the kind of failure to the HTTP status.
    static func status(for category: ErrorCategory) -> Int {
        switch category {
        case .invalidInput: 400
        case .notFound: 404
        case .conflict: 409
        case .staleVersion: 412
        case .refused: 422
        case .unavailable, .readOnly: 503
        case .outcomeUnknown, .incompatibleStore, .damagedStore, .storageFailure: 500
        }
    }

    /// The answer to an error a `CartService` call threw. A rule's refusal (`CartError`) says
    /// what it is, with the values a program needs beside the message (`sku`, `requested`,
    /// `limit`, `problems`); any other error (a backend's) gets a code from its category and a
    /// fixed message that gives nothing of the store away (a backend's description may quote
    /// SQL), its details going to `log`. A 503 says when to try again.
    init(_ error: any Error, log: FailureLog) {
        if let error = error as? APIError {
            self = error
            return
        }
        let category = ErrorCategory(of: error)
        let status = Self.status(for: category)
        if let error = error as? CartError {
            self.init(status: status, code: error.code, message: error.publicMessage)
            switch error {
            case .cannotCheckOut(_, let problems): self.problems = problems
            case .unknownProduct(let sku), .inactiveProduct(let sku), .productExists(let sku), .notInCart(let sku, _),
                .stockChangeRefused(let sku, _, _):
                self.sku = sku
            case .insufficientStock(let sku, let requested, let available):
                (self.sku, self.requested, limit) = (sku, requested, available)
            case .lineQuantityCapExceeded(let sku, let requested, let cap):
                (self.sku, self.requested, limit) = (sku, requested, cap)
            case .lineCountCapExceeded(_, let cap): limit = cap
            default: break
            }
            return
        }
        log.record("\(category)", "store error (\(category)): \(error)")
        let (code, message): (String, String) =
            switch category {
            case .unavailable: ("store_unavailable", "The store is busy or out of reach; try again shortly.")
            case .outcomeUnknown: ("outcome_unknown", "The store went out of reach committing the change, which may or may not be made; look before trying again.")
            case .readOnly: ("store_read_only", "The store cannot be written at the moment.")
            case .incompatibleStore: ("store_incompatible", "The store needs another version of the service.")
            case .damagedStore: ("store_damaged", "The store holds data the service cannot use.")
            case .storageFailure: ("storage_failure", "The store failed; the server log has the details.")
            case .invalidInput: ("invalid_input", "The store could not take a value of the request; the server log has the details.")
            case .notFound: ("not_found", "The store has nothing under that name.")
            case .conflict: ("conflict", "The request conflicts with what the store holds.")
            case .staleVersion: ("stale_version", "What the request was based on changed meanwhile; read it again.")
            case .refused: ("refused", "The store refused the request.")
            }
        self.init(status: status, code: code, message: message)
        if status == 503 { headers.set("Retry-After", "1") }
    }

    /// What the HTTP layer answers on its own (400 for conflicting framing, 413 for a body over
    /// the limit, 500 for a response it refused), in the API's error shape.
    static func serverResponse(status: Int, message: String) -> HTTPResponse {
        let code =
            switch status {
            case 413: "body_too_large"
            case 400: "malformed_request"
            default: "internal_error"
            }
        return APIError(status: status, code: code, message: CartAPI.sentence(message)).response
    }
}
