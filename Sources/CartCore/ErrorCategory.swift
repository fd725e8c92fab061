#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What kind of failure an error is, whichever backend or rule raised it: what a front end
/// maps to its own answer (the CLI to an exit status, an HTTP server to a status code).
public enum ErrorCategory: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A value is malformed: a SKU, a quantity below 1, an amount, a cart ID, a page size.
    case invalidInput
    /// What the request names does not exist: a product, a line, an order.
    case notFound
    /// The request clashes with what is stored: a product that already exists, an idempotency
    /// key used for another cart.
    case conflict
    /// The caller's expected version is not the stored one: the cart changed since it was read.
    case staleVersion
    /// A rule of the store refuses a well-formed request: a cap, the stock, an inactive
    /// product, an empty cart.
    case refused
    /// The store is busy or cannot be reached right now; trying again later may work.
    case unavailable
    /// The connection to the store was lost while a change was being committed: the change
    /// may or may not have been made. Trying again as it is could make it twice; look first.
    case outcomeUnknown
    /// The store can be read but not written by this process.
    case readOnly
    /// The store was written by another version or another application, or needs a migration
    /// this process may not apply.
    case incompatibleStore
    /// The store is damaged, or holds values another client wrote that the service cannot use.
    case damagedStore
    /// Storage failed in another way: a full disk, an I/O error, a file that cannot be opened.
    case storageFailure

    public var description: String { rawValue }
}

/// An error that says what kind of failure it is. Every error a `CartService` call throws
/// conforms: `CartError`, `StoredDataError`, and each backend's storage errors.
///
/// It is a `LocalizedError` whose `errorDescription` is its `description`, so that
/// Foundation's `localizedDescription` (what SwiftUI's alerts show) gives the one-line message
/// rather than the type's name and a case number.
public protocol CategorizedError: LocalizedError {
    /// The kind of failure.
    var category: ErrorCategory { get }

    /// What happened, in words for people and without a backend's detail, when the category
    /// alone does not say it ("its directory is not writable"); `nil` otherwise.
    var reason: String? { get }
}

extension CategorizedError {
    public var reason: String? { nil }

    // LocalizedError's other members, here so that a conforming type needs no Foundation import.
    public var errorDescription: String? { nil }
    public var failureReason: String? { reason }
    public var recoverySuggestion: String? { nil }
    public var helpAnchor: String? { nil }
}

extension CategorizedError where Self: CustomStringConvertible {
    public var errorDescription: String? { description }
}

extension ErrorCategory {
    /// The category of any error: its own when it reports one, `storageFailure` otherwise.
    public init(of error: any Error) {
        self = (error as? any CategorizedError)?.category ?? .storageFailure
    }
}
