import CartPostgres
import Foundation
import Testing

/// The PostgreSQL server the tests use, named by environment variables that
/// `scripts/postgres-cluster.sh start DIR` prints.
///
/// The one place that decides whether a test that needs the server runs: it runs when its
/// variable is set, and is skipped with the reason shown otherwise, except under `CI=true`,
/// where it runs and fails for want of the variable. A configured server that does not answer
/// fails the tests everywhere.
enum TestServer {
    /// The main location: `CART_TEST_POSTGRES_URL`.
    static let url = "CART_TEST_POSTGRES_URL"
    /// A location whose role must give a password: `CART_TEST_POSTGRES_PASSWORD_URL`.
    static let passwordURL = "CART_TEST_POSTGRES_PASSWORD_URL"
    /// The cluster's directory, for tests that start a cluster of their own with the script:
    /// `CART_TEST_POSTGRES_DIR`.
    static let directory = "CART_TEST_POSTGRES_DIR"

    private static let environment = ProcessInfo.processInfo.environment

    private static var isCI: Bool { ["true", "1"].contains(environment["CI"]?.lowercased() ?? "") }

    /// A trait that skips the test, with the reason, unless `variable` is set or this is CI.
    static func requires(_ variable: String = url) -> ConditionTrait {
        .enabled(
            if: isCI || environment[variable] != nil,
            "\(variable) is not set: eval \"$(scripts/postgres-cluster.sh start /tmp/cart-pg)\" to run the PostgreSQL tests")
    }

    /// The value of `variable`.
    ///
    /// - Throws: when it is not set (reachable only under CI, where that is a failure).
    static func value(_ variable: String) throws -> String {
        guard let value = environment[variable], !value.isEmpty else {
            throw Missing(variable: variable)
        }
        return value
    }

    /// The location in `variable`.
    static func location(_ variable: String = url) throws -> PostgresLocation {
        try PostgresLocation(value(variable))
    }

    /// A new connection to the main location.
    static func connect(options: PostgresConnectionOptions = PostgresConnectionOptions()) throws -> PostgresConnection {
        try PostgresConnection(location: location(), options: options)
    }

    struct Missing: Error, CustomStringConvertible {
        let variable: String
        var description: String { "\(variable) is not set, and CI=true requires the PostgreSQL tests to run" }
    }
}
