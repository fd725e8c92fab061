/// The table: every input here must be refused with its status and one clear line, and leave
/// the database as it was. The sandbox holds the `cart demo` catalog, one order, and a cart
/// holding 1 tea (version 1).
extension HostileInput {
    static let tenKilobytes = String(repeating: "x", count: 10_240)
    static let sqlInjection = "'; DROP TABLE products; --"

    static let quantities: [HostileInput] = [
        .usage("quantity 0", ["add", "apple", "0"], "'<quantity>': must be a whole number of at least 1"),
        .usage("quantity -1", ["add", "apple", "-1"], "The value '-1' is invalid for '<quantity>'"),
        .usage("quantity 1.5", ["add", "apple", "1.5"], "The value '1.5' is invalid"),
        .usage("quantity 1e3", ["add", "apple", "1e3"], "The value '1e3' is invalid"),
        .usage("quantity 0x10", ["add", "apple", "0x10"], "The value '0x10' is invalid"),
        .usage("quantity with a leading space", ["add", "apple", " 2"], "The value ' 2' is invalid"),
        .usage("quantity +3", ["add", "apple", "+3"], "The value '+3' is invalid"),
        .usage("fullwidth digit ２", ["add", "apple", "２"], "The value '２' is invalid"),
        .usage("Arabic-Indic digit ٣", ["add", "apple", "٣"], "The value '٣' is invalid"),
        .usage("empty quantity", ["add", "apple", ""], "The value '' is invalid for '<quantity>'"),
        .usage("huge quantity", ["add", "apple", "99999999999999999999999"], "the number is too large"),
        .refused("quantity over the line cap", ["add", "apple", "100"], "Cannot hold 100 of 'apple': at most 99 per line."),
        .refused("line cap reached by adding", ["add", "tea", "99"], "Cannot hold 100 of 'tea': at most 99 per line."),
        .usage("set to -1", ["set", "tea", "-1"], "The value '-1' is invalid for '<quantity>'"),
        .refused("more stock than exists", ["add", "olive-oil", "4"], "Insufficient stock for 'olive-oil'"),
        .usage("--if-version -1", ["add", "apple", "--if-version", "-1"], "invalid for '--if-version <n>'"),
        .usage("empty --db", ["--db", "", "show"], "expected a store location (a file path, memory: or postgresql://…)"),
        .refused("stale --if-version", ["add", "apple", "--if-version", "7"], "version"),
    ]

    static let amounts: [HostileInput] = [
        .usage("price -1", ["products", "add", "x", "--name", "X", "--price", "-1"], "invalid for '--price <amount>': amounts cannot be negative."),
        .usage("price 1.999", ["products", "add", "x", "--name", "X", "--price", "1.999"], "USD has at most 2"),
        .usage("price NaN", ["products", "add", "x", "--name", "X", "--price", "NaN"], "The value 'NaN' is invalid"),
        .usage("price ∞", ["products", "add", "x", "--name", "X", "--price", "∞"], "The value '∞' is invalid"),
        .usage("price 1,00", ["products", "add", "x", "--name", "X", "--price", "1,00"], "The value '1,00' is invalid"),
        .usage("price 1e2", ["products", "add", "x", "--name", "X", "--price", "1e2"], "The value '1e2' is invalid"),
        .usage("price .5", ["products", "add", "x", "--name", "X", "--price", ".5"], "The value '.5' is invalid for '--price <amount>': it needs digits before the decimal point."),
        .usage("price 1.", ["products", "add", "x", "--name", "X", "--price", "1."], "The value '1.' is invalid for '--price <amount>': it needs digits after the decimal point."),
        .usage("price 1.2.3", ["products", "add", "x", "--name", "X", "--price", "1.2.3"], "it has more than one decimal point."),
        .usage("empty price", ["products", "add", "x", "--name", "X", "--price", ""], "The value '' is invalid for '--price <amount>': it is empty."),
        .usage("huge price", ["products", "add", "x", "--name", "X", "--price", "99999999999999999999"], "too large"),
        .usage("price over the cap", ["products", "add", "x", "--name", "X", "--price", "1000000.01"], "at most"),
        .usage("update price abc", ["products", "update", "apple", "--price", "abc"], "The value 'abc' is invalid"),
    ]

    static let identifiers: [HostileInput] = [
        .usage("empty SKU", ["add", ""], "Invalid SKU '': it is empty."),
        .usage("whitespace SKU", ["add", "   "], "Invalid SKU '   ': it is empty."),
        .usage("10 kB SKU", ["add", tenKilobytes], "it is longer than 64 characters."),
        .usage("SKU with BEL", ["add", "a\u{07}b"], "Invalid SKU 'a\\u{07}b': it contains control characters."),
        .usage("SKU with an escape sequence", ["products", "add", "a\u{1B}[31m", "--name", "X", "--price", "1"], "\\u{1B}"),
        .usage("SKU with a newline", ["add", "apple\nbanana"], "control characters"),
        .usage(
            "SKU with a zero-width space", ["add", "apple\u{200B}"],
            "Invalid SKU 'apple\\u{200B}': use printable ASCII characters only."),
        .usage("non-ASCII SKU", ["products", "add", "ｓｋｕ", "--name", "X", "--price", "1"], "Invalid SKU"),
        .refused("SQL as a SKU to add", ["add", sqlInjection], "No product"),
        .refused("SQL as a product to show", ["products", "show", sqlInjection], "No product"),
        .refused("SQL as a cart to check out", ["--cart", "'; DROP TABLE carts; --", "checkout"], "empty"),
        .usage("empty name", ["products", "add", "x", "--name", "", "--price", "1"], "Invalid product name"),
        .usage("whitespace name", ["products", "add", "x", "--name", " \t ", "--price", "1"], "it is empty"),
        .usage("10 kB name", ["products", "add", "x", "--name", tenKilobytes, "--price", "1"], "longer than 200"),
        .usage("name with a line break", ["products", "update", "apple", "--name", "a\u{2028}b"], "control characters"),
        .usage("empty cart ID", ["--cart", "", "add", "apple"], "Invalid cart ID '': it is empty."),
        .usage("10 kB cart ID", ["--cart", tenKilobytes, "add", "apple"], "longer than 128 characters"),
        .usage("cart ID with surrounding space", ["--cart", " bob ", "add", "apple"], "leading or trailing space"),
        .usage("empty idempotency key", ["checkout", "--key", ""], "Invalid idempotency key '': it is empty."),
        .usage("10 kB idempotency key", ["checkout", "--key", tenKilobytes], "longer than 128"),
        .refused("merge a cart into itself", ["merge", "default"], "Cannot merge cart 'default' into itself."),
        .refused("remove what is not in the cart", ["remove", "apple"], "'apple' is not in cart 'default'."),
        .refused("check out an empty cart", ["--cart", "nobody", "checkout"], "empty"),
        .refused("an order that does not exist", ["orders", "show", "999"], "No order number 999."),
    ]

    static let datesAndCommands: [HostileInput] = [
        .usage("month 13", ["orders", "--since", "2026-13-01"], "The value '2026-13-01' is invalid for '--since <date>'"),
        .usage("February 30", ["orders", "--until", "2026-02-30"], "The value '2026-02-30' is invalid"),
        .usage("yesterday", ["orders", "stats", "--since", "yesterday"], "The value 'yesterday' is invalid"),
        .usage("unpadded date", ["orders", "--since", "2026-1-1"], "The value '2026-1-1' is invalid"),
        .usage("hour 25", ["orders", "--since", "2026-11-29T25:00:00Z"], "is invalid for '--since <date>'"),
        .usage("an instant without its offset", ["orders", "--until", "2026-11-29T15:41:33"], "an instant needs its offset from UTC, such as 2026-11-29T15:41:33Z or 2026-11-29T15:41:33+02:00."),
        .usage("unknown command", ["frobnicate"], "Unknown command 'frobnicate'."),
        .usage("mistyped command", ["chekout"], "Did you mean 'checkout'?"),
        .usage("unknown option", ["add", "apple", "--qyt", "3"], "Unknown option '--qyt'."),
        .usage("unknown short option", ["products", "add", "-x", "--name", "X", "--price", "1"], "Unknown option '-x'."),
        .usage("missing SKU", ["add"], "Missing expected argument '<sku>'."),
        .usage("missing --db value", ["show", "--db"], "Missing value for '--db <location>'."),
        .usage("missing --price", ["products", "add", "x", "--name", "X"], "Missing expected argument '--price <amount>'."),
        .usage("an extra argument", ["add", "apple", "1", "2"], "Unexpected argument '2'."),
        .usage("a flag given a value", ["show", "--json=yes"], "Option '--json' does not take a value."),
        .usage("--limit 0", ["orders", "--limit", "0"], "must be a whole number of at least 1"),
        .usage("--limit over the page size", ["orders", "--limit", "10001"], "a page holds at most 10000 orders"),
        .usage("--until before --since", ["orders", "--since", "2027-01-01", "--until", "2026-01-01"], "is empty: its end must come after its start"),
        .usage("stats over an empty range", ["orders", "stats", "--since", "2026-05-01", "--until", "2026-05-01"], "is empty"),
        .usage("prune without --older-than", ["prune"], "Missing expected argument '--older-than <days>'."),
        .usage("--store disk", ["--store", "disk", "show"], "expected one of sqlite, memory"),
        .usage(
            "a misspelt grouping", ["orders", "stats", "--by", "prodcut"],
            "expected one of total, day, month, product. Did you mean 'product'?"),
        .usage("unknown currency", ["db", "init", "--currency", "XYZ"], "not an ISO 4217 code"),
        .usage("--busy-timeout -5", ["--busy-timeout", "-5", "show"], "invalid for '--busy-timeout <ms>'"),
        .usage("order number 0", ["orders", "show", "0"], "The value '0' is invalid for '<number>'"),
        .usage("--active with --inactive", ["products", "update", "apple", "--active", "--inactive"], "cannot be used"),
        .usage("--csv with --json", ["orders", "--csv", "--json"], "'--csv' cannot be used with '--json'."),
        .usage("CART_BUSY_TIMEOUT=abc", ["show"], "CART_BUSY_TIMEOUT", env: ["CART_BUSY_TIMEOUT": "abc"]),
        .usage("CART_STORE=disk", ["show"], "CART_STORE", env: ["CART_STORE": "disk"]),
        .usage(
            "a URL no store handles", ["--db", "mysql://u@h/db", "show"],
            "no store handles 'mysql:'; use a file path, memory: or postgresql://… (a file whose name starts like a URL"),
        .usage("an option that swallows the command", ["--cart", "show"], "Missing the command to run, such as 'products' or 'add' ('show' was read as the value of --cart)."),
        .usage("a group with options and no command", ["--json", "db"], "Missing the command to run after 'cart db', such as"),
        .usage("a URL missing a slash", ["--db", "postgresql:/shop", "show"], "'postgresql:/shop' looks like a URL, but not one of the form postgresql://…"),
        .usage("the short scheme missing a slash", ["--db", "postgres:/shop", "show"], "'postgres:/shop' looks like a URL, but not one of the form postgresql://…"),
        .usage("a SQLite URI", ["--db", "file:shop.db?mode=ro", "show"], "no store handles 'file:'"),
        .usage(
            "a libpq connection string", ["--db", "host=/tmp dbname=shop password=hunter2", "show"],
            "'host=…' looks like a key=value connection string, which is not a store location; write it as a postgresql://… URL"),
        .usage(
            "a home directory the shell left as it is", ["--db=~/shop.sqlite3", "demo"],
            "'~/shop.sqlite3' starts with '~', which no shell expanded"),
        .usage("another user's home in CART_DB", ["show"], "'~alice/shop.sqlite3' starts with '~'", env: ["CART_DB": "~alice/shop.sqlite3"]),
        // Taken as it is, the URL would be a file name, its password a folder's.
        .usage(
            "a space before a URL in CART_DB", ["db", "init"],
            "The store location 'postgresql://shop:***@db.example/shop' is written with white space",
            env: ["CART_DB": " postgresql://shop:hunter2@db.example/shop"]),
        .usage(
            "a line end after CART_DB", ["show"], "The store location 'shop.sqlite3' is written with white space",
            env: ["CART_DB": "shop.sqlite3\n"]),
        .usage("a space after --db", ["--db", "shop.sqlite3 ", "add", "apple"], "is written with white space"),
        .usage("CART_DB of white space only", ["show"], "The store location is nothing but white space", env: ["CART_DB": " \t"]),
    ]

    static let importFiles: [HostileInput] = [
        .badImport("bad row in the middle", "middle.csv", "sku,name,price\na,A,1\nb,B,abc\nc,C,3\n", "middle.csv:3:"),
        .badImport("unterminated quote", "quote.csv", "sku,name,price\na,\"A,1\nb,B,2\n", "never closed"),
        .badImport("wrong header", "header.csv", "id,title,cost\na,A,1\n", "Unknown column 'id'"),
        .badImport("duplicate SKUs", "dupes.csv", "sku,name,price\nx,X,1\nx,Y,2\n", "dupes.csv:3: SKU 'x' already appears"),
        .badImport("invalid UTF-8", "latin1.csv", Array("sku,name,price\nx,Caf".utf8) + [0xE9] + Array(",1\n".utf8), "not valid UTF-8"),
        .badImport("UTF-16 with its BOM", "utf16.csv", [0xFF, 0xFE] + Array("sku,name,price\n".utf8), "not valid UTF-8"),
        .badImport(
            "two BOMs", "boms.csv", [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("sku,name,price\n".utf8),
            "boms.csv:1: Unknown column '\\u{FEFF}sku'"),
        .badImport("BOM then a bad row", "bom.csv", [0xEF, 0xBB, 0xBF] + Array("sku,name,price\nx,X,-1\n".utf8), "bom.csv:2:"),
        .badImport("empty file", "empty.csv", "", "The file is empty"),
        .badImport("too few fields", "short.csv", "sku,name,price\na,A\n", "Expected 3 fields"),
        .badImport("quote inside a field", "inner.csv", "sku,name,price\na,A\"B,1\n", "quote inside an unquoted field"),
        .badImport("negative stock", "stock.csv", "sku,name,price,stock\na,A,1,-1\n", "Stock '-1'"),
        .badImport("three decimals", "cents.csv", "sku,name,price\na,A,1.299\n", "at most 2 decimal places"),
        .badImport("10 kB SKU in a file", "long.csv", "sku,name,price\n\(tenKilobytes),A,1\n", "longer than 64"),
        .badImport("NUL in a SKU", "nul.csv", Array("sku,name,price\na".utf8) + [0] + Array("b,A,1\n".utf8), "control characters"),
        .badImport("JSON object, not an array", "object.json", #"{"sku": "x", "name": "X", "price": "1"}"#, "Expected a JSON array of products"),
        .badImport("JSON trailing comma", "comma.json", #"[{"sku": "x", "name": "X", "price": "1"},]"#, "comma.json:1:"),
        .badImport("JSON duplicate key", "dupkey.json", #"[{"sku": "x", "sku": "y", "name": "X", "price": "1"}]"#, "dupkey.json:1:"),
        .badImport("JSON array of numbers", "numbers.json", "[1, 2]", "index 0: Expected an object."),
        .badImport("JSON nested 10 000 deep", "deep.json", String(repeating: "[", count: 10_000), "deeper than 256"),
        .badImport("JSON lone surrogate", "surrogate.json", #"[{"sku": "\ud800", "name": "X", "price": "1"}]"#, "surrogate"),
        .badImport("JSON unknown key", "key.json", #"[{"sku": "x", "name": "X", "price": "1", "colour": "red"}]"#, "Unknown key \"colour\""),
        HostileInput(
            label: "import a file that does not exist", arguments: ["products", "import", "/nonexistent/p.csv"], file: nil,
            environment: [:], status: 1, message: "No such file '/nonexistent/p.csv'."),
        HostileInput(
            label: "import a directory", arguments: ["products", "import", "/tmp"], file: nil, environment: [:],
            status: 1, message: "'/tmp' is a directory, not a file."),
    ]

    static let all = quantities + amounts + identifiers + datesAndCommands + importFiles
}
