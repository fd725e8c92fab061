import CartPostgres
import Testing

@Suite("PostgreSQL locations")
struct PostgresLocationTests {
    @Test("a URI shows with its password masked", arguments: [
        ("postgresql://cart:s3cret@db.example:5432/shop", "postgresql://cart:***@db.example:5432/shop"),
        ("postgres://cart:p:q@db/shop", "postgres://cart:***@db/shop"),
        ("postgresql://cart@db/shop?password=s3cret&application_name=x", "postgresql://cart@db/shop?password=***&application_name=x"),
        ("postgresql://cart@%2Ftmp%2Fpg:5432/shop", "postgresql://cart@%2Ftmp%2Fpg:5432/shop"),
        ("postgresql:///shop?host=/tmp", "postgresql:///shop?host=/tmp"),
        ("postgresql://cart@db/shop?sslpassword=s3cret", "postgresql://cart@db/shop?sslpassword=***"),
    ])
    func redactedURI(text: String, shown: String) throws {
        let location = try PostgresLocation(text)
        #expect(location.description == shown)
        #expect("\(location)" == shown)
        #expect(!String(reflecting: location).contains("s3cret"))
    }

    @Test("a keyword=value string shows with its password masked", arguments: [
        ("host=/tmp dbname=shop password=s3cret", "host=/tmp dbname=shop password=***"),
        ("host=db password = 's3 cret' user=cart", "host=db password = *** user=cart"),
        ("host=db sslpassword=s3cret", "host=db sslpassword=***"),
    ])
    func redactedKeywords(text: String, shown: String) throws {
        #expect(try PostgresLocation(text).description == shown)
    }

    @Test("a malformed location is refused in one line that masks the password", arguments: [
        "postgresql://cart:s3cret@[::1/shop",
        "postgresql://cart:s3cret%zz@db/shop",
        "postgresql://cart:s3cret@db/shop?bogus=1",
        "postgresql://cart@db/shop?PASSWORD=s3cret",
        "host=db PassWord=s3cret",
        "host=db password='s3cret",
        "host=db password s3cret",
    ])
    func malformed(text: String) {
        let error = #expect(throws: PostgresError.self) { try PostgresLocation(text) }
        #expect(error?.kind == .invalidLocation)
        let description = error?.description ?? ""
        #expect(!description.contains("s3cret"))
        #expect(!description.contains("\n"))
        #expect(description.hasPrefix("PostgreSQL error: invalid PostgreSQL location "))
    }

    @Test("an empty location leaves everything to the PG* variables and says so")
    func empty() throws {
        #expect(try PostgresLocation("").description == "(the PG* environment variables' server)")
    }

    @Test("only postgresql:// and postgres:// are URIs")
    func uriPrefixes() {
        #expect(PostgresLocation.isURI("postgresql://db/shop"))
        #expect(PostgresLocation.isURI("postgres://db/shop"))
        #expect(!PostgresLocation.isURI("cart.sqlite3"))
        #expect(!PostgresLocation.isURI("postgresql:db"))
    }
}
