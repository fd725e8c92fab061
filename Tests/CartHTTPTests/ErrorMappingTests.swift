import CartCore
@testable import CartHTTP
import CartTestSupport
import HTTPServer
import Testing

@Suite("Errors as HTTP answers")
struct ErrorMappingTests {
    /// A backend's error of any category, whose description quotes SQL as backends' do.
    struct BackendError: CategorizedError, CustomStringConvertible {
        let category: ErrorCategory
        var description: String { "value out of range - while executing SELECT secret FROM store_secret" }
    }

    @Test(
        "a backend's error gets its category's status and a fixed message; its description goes only to the log",
        arguments: [
            (ErrorCategory.invalidInput, 400, "invalid_input"), (.notFound, 404, "not_found"), (.conflict, 409, "conflict"),
            (.staleVersion, 412, "stale_version"), (.refused, 422, "refused"), (.unavailable, 503, "store_unavailable"),
            (.readOnly, 503, "store_read_only"), (.incompatibleStore, 500, "store_incompatible"),
            (.damagedStore, 500, "store_damaged"), (.storageFailure, 500, "storage_failure"),
            (.outcomeUnknown, 500, "outcome_unknown"),
        ])
    func backendErrors(category: ErrorCategory, status: Int, code: String) {
        let logged = Recorder<String>()
        let answer = APIError(BackendError(category: category), log: FailureLog(log: logged.record))
        #expect(answer.status == status && answer.code == code)
        // Only a store that is out of reach for now is asked again later.
        #expect((answer.headers["Retry-After"] != nil) == (status == 503))
        #expect(!answer.message.contains("SELECT") && !answer.message.contains("store_secret"), "\(answer.message)")
        #expect(logged.all.count == 1 && logged.all[0].contains("while executing SELECT"))
    }

    @Test("a rule's refusal says what it is, and is not logged")
    func refusals() {
        let logged = Recorder<String>()
        let answer = APIError(CartError.emptyCart("alice"), log: FailureLog(log: logged.record))
        #expect(answer.status == 422 && answer.code == "empty_cart")
        #expect(answer.message == CartError.emptyCart("alice").publicMessage)
        #expect(logged.all.isEmpty)
    }

    @Test("an existing product's refusal names its SKU, which no route answers but the mapping gives as for the others")
    func productExistsNamesTheSKU() {
        let answer = APIError(CartError.productExists("kid's-tee"), log: FailureLog(log: { _ in }))
        #expect(answer.status == 409 && answer.code == "product_exists" && answer.sku == "kid's-tee")
    }

    @Test("store failures of one kind are logged once a window; the next line says how many were left out")
    func repeatedFailures() {
        let logged = Recorder<String>()
        let log = FailureLog(window: .seconds(10), log: logged.record)
        let start = ContinuousClock.now
        for second in 0..<5 { log.record("unavailable", "store error (unavailable): lost", now: start + .seconds(second)) }
        log.record("readOnly", "store error (readOnly): read-only", now: start + .seconds(5))
        log.record("unavailable", "store error (unavailable): lost again", now: start + .seconds(10))
        log.record("unavailable", "store error (unavailable): lost", now: start + .seconds(11))
        log.record("unavailable", "store error (unavailable): back", now: start + .seconds(30))
        #expect(
            logged.all == [
                "store error (unavailable): lost",
                "store error (readOnly): read-only",
                "store error (unavailable): lost again (4 more of its kind left out since the last such line)",
                "store error (unavailable): back (1 more of its kind left out since the last such line)",
            ])
    }
}
