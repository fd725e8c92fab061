import CartCore
import CartPostgres
import Foundation
import Testing

/// `check()` compares the store's schema with what its applied migrations make, in a scratch
/// schema: a new one for a role that may create schemas (`cart_test` owns the database), the
/// session's temporary schema for one that may not (`cart_password`).
extension PostgresMaintenanceTests {
    static let roles = [TestServer.url, TestServer.passwordURL]

    /// What `check()` finds in a busy store of the role of `variable` after that role ran
    /// `script` in it.
    func problems(after script: String, _ variable: String = TestServer.url) throws -> [String] {
        let (schema, repository) = try busyStore(variable)
        defer { try? schema.drop() }
        try schema.run(script: script)
        return try repository.check()
    }

    @Test("the roles of the tests take the two ways to a scratch schema", TestServer.requires(TestServer.passwordURL))
    func scratchSchemaWays() throws {
        let mayCreate: PostgresSQL = "SELECT has_database_privilege(current_database(), 'CREATE')"
        #expect(try PostgresConnection(TestServer.value(TestServer.url)).execute(mayCreate).first?.bool(0) == true)
        #expect(try PostgresConnection(TestServer.value(TestServer.passwordURL)).execute(mayCreate).first?.bool(0) == false)
    }

    @Test("a fresh store is as its migrations made it, and the scratch schema is gone after the check",
        TestServer.requires(TestServer.passwordURL), arguments: roles)
    func freshStore(_ variable: String) throws {
        let schema = try TestSchema(variable)
        defer { try? schema.drop() }
        let repository = try schema.repository()
        #expect(try repository.check() == [])
        let scratch = try schema.execute("SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname LIKE 'cart\\_check\\_%'")
        #expect(try scratch.first?.int(0) == 0)
    }

    @Test("a session that is read-only by default still compares the schema, and finds what changed",
        TestServer.requires(TestServer.passwordURL), arguments: roles)
    func readOnlySession(_ variable: String) throws {
        let schema = try TestSchema(variable)
        defer { try? schema.drop() }
        _ = try schema.repository()
        let readOnly = try PostgresCartRepository(url: schema.url + "%20-c%20default_transaction_read_only%3Don")
        #expect(try readOnly.check() == [])
        try schema.run(script: "DROP INDEX orders_by_idempotency_key")
        #expect(try readOnly.check() == ["index orders_by_idempotency_key is missing: the schema was changed outside cart"])
        // The session is read-only for everything else.
        let write = #expect(throws: (any Error).self) { try CartService(repository: readOnly).updateSettings(maxLineQuantity: 50) }
        #expect(write.map { ErrorCategory(of: $0) } == .readOnly)
    }

    @Test("a dropped unique index, a dropped NOT NULL and a changed default are findings, one line each",
        TestServer.requires(TestServer.passwordURL), arguments: roles)
    func changedSchema(_ variable: String) throws {
        let script = """
            DROP INDEX orders_by_idempotency_key;
            ALTER TABLE orders ALTER COLUMN cart_id DROP NOT NULL;
            ALTER TABLE products ALTER COLUMN active SET DEFAULT false;
            """
        #expect(
            try problems(after: script, variable) == [
                #"column orders.cart_id is text COLLATE "C", not text COLLATE "C" NOT NULL as the migrations made it: the schema was changed outside cart"#,
                "column products.active is boolean NOT NULL DEFAULT false, not boolean NOT NULL DEFAULT true as the migrations made it: the schema was changed outside cart",
                "index orders_by_idempotency_key is missing: the schema was changed outside cart",
            ])
    }

    @Test("an index, a trigger, a table and a function changed or dropped are findings; a table gone is one line")
    func changedObjects() throws {
        let script = """
            DROP INDEX orders_by_cart;
            CREATE INDEX orders_by_cart ON orders (cart_id);
            DROP TRIGGER carts_changed ON carts;
            DROP TABLE store_secret;
            CREATE OR REPLACE FUNCTION cart_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
            """
        #expect(
            try problems(after: script) == [
                "function cart_notify_change() is not as the migrations made it: the schema was changed outside cart",
                "index orders_by_cart is CREATE INDEX orders_by_cart ON orders USING btree (cart_id), not CREATE INDEX orders_by_cart ON orders USING btree (cart_id, placed_at, number) as the migrations made it: the schema was changed outside cart",
                "table store_secret is missing: the schema was changed outside cart",
                "trigger carts_changed of carts is missing: the schema was changed outside cart",
            ])
    }

    @Test("an index, a column, a table and a trigger of another client's own are not problems",
        TestServer.requires(TestServer.passwordURL), arguments: roles)
    func objectsOfAnotherClient(_ variable: String) throws {
        let script = """
            CREATE INDEX products_by_name ON products (name);
            ALTER TABLE products ADD COLUMN note text;
            CREATE TABLE audit (id bigint PRIMARY KEY, said text NOT NULL CHECK (said <> ''));
            CREATE TRIGGER products_audited AFTER UPDATE ON products FOR EACH STATEMENT EXECUTE FUNCTION cart_notify_change();
            """
        #expect(try problems(after: script, variable) == [])
    }

    @Test("a CHECK constraint put back NOT VALID over a row that breaks it: the constraint once, the row once",
        TestServer.requires(TestServer.passwordURL), arguments: roles)
    func notValidConstraint(_ variable: String) throws {
        let (schema, repository) = try busyStore(variable)
        defer { try? schema.drop() }
        try schema.run(
            script: """
            ALTER TABLE products DROP CONSTRAINT products_price_check;
            UPDATE products SET price = -5 WHERE sku = 'apple';
            ALTER TABLE products ADD CONSTRAINT products_price_check CHECK (price BETWEEN 0 AND 100000000) NOT VALID;
            """)
        #expect(
            try repository.check() == [
                "constraint products_price_check of products is NOT VALID: rows from before it are unchecked",
                "the price of product 'apple' is -5, below 0",
            ])
        // A constraint no range repeats names its rows itself.
        try schema.run(
            script: """
            UPDATE products SET price = 5 WHERE sku = 'apple';
            ALTER TABLE products VALIDATE CONSTRAINT products_price_check;
            ALTER TABLE order_lines DROP CONSTRAINT order_lines_check;
            UPDATE order_lines SET line_total = line_total + 1;
            ALTER TABLE order_lines ADD CONSTRAINT order_lines_check CHECK (line_total = unit_price * quantity) NOT VALID;
            """)
        #expect(
            try repository.check() == [
                "constraint order_lines_check of order_lines is NOT VALID: rows from before it are unchecked",
                "order_lines: 1 row break CHECK constraint order_lines_check",
                "order 1: its totals (1 items, 125 minor units) are not its lines' (1 items, 126 minor units)",
            ])
    }

    @Test("without the store's trigger function, a role that may not create schemas is told the schema cannot be compared",
        TestServer.requires(TestServer.passwordURL), arguments: roles)
    func droppedFunction(_ variable: String) throws {
        let problems = try problems(after: "DROP FUNCTION cart_notify_change() CASCADE", variable)
        if variable == TestServer.url {
            #expect(problems.first == "function cart_notify_change() is missing: the schema was changed outside cart")
            #expect(Array(problems.dropFirst()) == ["cart_lines", "carts", "orders", "products", "settings"].map {
                "trigger \($0)_changed of \($0) is missing: the schema was changed outside cart"
            })
        } else {
            #expect(
                problems == [
                    "the schema cannot be compared with the migrations: 0001_initial_schema fails in a scratch schema: function cart_notify_change() does not exist"
                ])
        }
    }
}
