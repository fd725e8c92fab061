import CartCore

/// The `--json` shapes only the CLI writes. Each is a small wrapper around the library's own
/// `Codable` types (`Product`, `Cart`, `Order`, `StoreSettings`, …), so a value has one shape
/// wherever it appears; `CommandRunner.emit` writes them all with `CartJSON.encoder()`, keys
/// sorted. docs/CLI.md shows them and the end-to-end tests pin them.
enum CLIJSON {
    /// `cart products export FILE --json`: `{"exported":4}`, the products written to `FILE`.
    struct Exported: Encodable {
        let exported: Int
    }

    /// `cart prune --json`: `{"deleted":2}`.
    struct Pruned: Encodable {
        let deleted: Int
    }

    /// `cart demo --json`: `{"added":12,"alreadyThere":0}`.
    struct Demo: Encodable {
        let added: Int
        let alreadyThere: Int
    }

    /// `cart --version --json`: `{"version":"0.1.0"}`.
    struct Version: Encodable {
        let version: String
    }

    /// `cart serve --json`, once it listens: `{"url":"http://127.0.0.1:8080"}`.
    struct Listening: Encodable {
        let url: String
    }

    /// `cart db init --json`: `{"created":true,"settings":SETTINGS}`.
    struct Initialised: Encodable {
        let created: Bool
        let settings: StoreSettings
    }

    /// `cart db migrate --json`: `{"applied":["0004_store_secret"]}`.
    struct Migrated: Encodable {
        let applied: [String]
    }

    /// `cart db check --json`: `{"ok":false,"problems":["…"]}`, every problem found.
    struct Checked: Encodable {
        let ok: Bool
        let problems: [String]
    }

    /// `cart db status --json`: `{"store","location","exists"}` and, for a store that exists,
    /// its schema (`schemaVersion`, `migrations`, `pendingMigrations`), the backend's `details`
    /// and, once no migration is pending, its `settings` and `counts`.
    struct Status: Encodable {
        /// The backend's kind: `sqlite`, `memory`.
        let store: String
        let location: String
        let exists: Bool
        var schemaVersion: Int?
        var migrations: [Migration]?
        var pendingMigrations: [String]?
        var details: [String: Detail]?
        var settings: StoreSettings?
        var counts: StoreCounts?

        /// A backend fact's value: a JSON number for a fact that is one, a string otherwise.
        struct Detail: Encodable {
            let detail: StoreStatus.Detail

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                if let number = detail.number { try container.encode(number) } else { try container.encode(detail.value) }
            }
        }

        /// `{"name","checksum","appliedAt"}`, `appliedAt` ISO 8601 in UTC.
        struct Migration: Encodable {
            let name: String
            let checksum: String
            let appliedAt: String

            init(_ migration: AppliedMigration) {
                name = migration.name
                checksum = migration.checksum
                appliedAt = UTCCalendar.iso8601(migration.appliedAt)
            }
        }
    }
}
