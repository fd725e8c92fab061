import CartCore
import Testing

@testable import CartCLI

@Suite("Product import files")
struct ProductFileReaderTests {
    let reader = ProductFileReader(name: "p.csv", currency: .usd)

    func failure(_ text: String, currency: Currency = .usd) -> String? {
        do {
            _ = try ProductFileReader(name: "p.csv", currency: currency).read(Array(text.utf8))
            return nil
        } catch let error as CommandFailure {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test("CSV columns may come in any order; an empty stock means untracked")
    func csv() throws {
        let file = try reader.read(
            Array("price, SKU ,name,stock\n1.29,apple,Apple,\n\"2.50\",kiwi,\"Kiwi, gold\",7\n".utf8))
        #expect(file.items.map(\.sku) == ["apple", "kiwi"])
        #expect(file.items.map(\.stock) == [.untracked, .tracked(7)])
        #expect(file.items[1].name == "Kiwi, gold")
        #expect(file.items[1].price == Money(minorUnits: 250, currency: .usd))
        #expect(file.items.map(\.isActive) == [nil, nil])
        #expect(file.lines == [2, 3])
        #expect(try reader.read(Array("sku,name,price\na,A,1\n".utf8)).items.count == 1)
    }

    @Test("a CSV column that is absent leaves its field unset, so the import keeps what is stored")
    func csvAbsentColumns() throws {
        let file = try reader.read(Array("sku,price\napple,1.35\n".utf8))
        #expect(file.items == [ProductImport(sku: "apple", price: Money(minorUnits: 135, currency: .usd))])
        let flags = try reader.read(Array("sku,active\na,true\nb,FALSE\nc, yes\nd,No\ne,1\nf,0\n".utf8))
        #expect(flags.items.map(\.isActive) == [true, false, true, false, true, false])
        #expect(flags.items.allSatisfy { $0.name == nil && $0.price == nil && $0.stock == nil })
        #expect(
            failure("sku,active\na,maybe\n") == "p.csv:2: Active 'maybe' must be one of true, false, yes, no, 1 or 0.")
        #expect(failure("sku,active\na,\n") == "p.csv:2: Active '' must be one of true, false, yes, no, 1 or 0.")
    }

    @Test("CSV errors name the file and the line where the record starts")
    func csvErrors() {
        #expect(
            failure("sku,name,price\na,\"two\nlines\",1\nb,B,1.299\n")
                == "p.csv:4: Invalid amount '1.299': USD has at most 2 decimal places.")
        #expect(failure("sku,name,price\na,A\n") == "p.csv:2: Expected 3 fields as in the header, found 2.")
        #expect(failure("sku,name,cost\n")?.hasPrefix("p.csv:1: Unknown column 'cost'") == true)
        #expect(failure("name,price\n")?.hasPrefix("p.csv:1: The header has no 'sku' column") == true)
        #expect(failure("sku,name,price,stock\na,A,1,-2\n")?.hasPrefix("p.csv:2: Stock '-2'") == true)
        #expect(failure("") == "p.csv:1: The file is empty; expected a header line such as 'sku,name,price'.")
        #expect(failure("sku,name,price\na,A,1\n", currency: .jpy) == nil)
        #expect(
            failure("sku,name,price\na,A,1.5\n", currency: .jpy)
                == "p.csv:2: Invalid amount '1.5': JPY has no fractional digits.")
    }

    @Test("JSON items are objects with sku, name, price and optional stock and active")
    func json() throws {
        let text = """
             [{"sku":"a","name":"A","price":"1.29","stock":null},
              {"sku":"b","name":"B","price":2.5,"stock":3,"active":false}]
            """
        let file = try ProductFileReader(name: "p.json", currency: .usd).read(Array(text.utf8))
        #expect(file.items.map(\.stock) == [.untracked, .tracked(3)])
        #expect(file.items.map(\.isActive) == [nil, false])
        #expect(file.items[1].price?.minorUnits == 250)
        let partial = try ProductFileReader(name: "p.json", currency: .usd).read(Array(#"[{"sku":"a","active":true}]"#.utf8))
        #expect(partial.items == [ProductImport(sku: "a", isActive: true)], "absent keys leave their fields unset")
    }

    @Test("a JSON object is read as JSON: the {\"products\": [...]} that the tool writes, and nothing else")
    func jsonObject() throws {
        let text = #" {"products":[{"sku":"a","name":"A","price":"1.29","active":true,"stock":null}]}"#
        let file = try ProductFileReader(name: "p.json", currency: .usd).read(Array(text.utf8))
        #expect(file.items.map(\.sku) == ["a"])
        let expected = #"p.csv: Expected a JSON array of products, or an object {"products": [...]}."#
        #expect(failure(#"{"sku":"a","name":"A","price":"1"}"#) == expected)
        #expect(failure(#"{"products":[],"total":0}"#) == #"p.csv: Unknown key "total" beside "products"; only "next" may be there."#)
        #expect(failure(#"{"next":"b","products":[{"sku":"a","price":"1"}]}"#) == nil, "a page of 'cart products --json'")
        #expect(failure(#"{"products":{}}"#) == #"p.csv: "products" must be an array of products."#)
        #expect(failure("{\n\"products\": [,]}") == "p.csv:2:14: Expected a value.")
        // What 'cart products --json' writes: a currency beside each price, which must be the store's.
        let exported = #"{"products":[{"active":true,"currency":"USD","name":"A","price":"1.29","sku":"a","stock":null}]}"#
        #expect(try ProductFileReader(name: "p.json", currency: .usd).read(Array(exported.utf8)).items.count == 1)
        #expect(
            failure(exported, currency: .eur)
                == #"p.csv: index 0: "currency" is 'USD', not the store currency EUR."#)
        #expect(
            failure(#"[{"sku":"a","name":"A","price":"1","currency":1}]"#)
                == #"p.csv: index 0: "currency" must be a string such as "USD"."#)
    }

    @Test("JSON errors name the index of the item, or the line and column of a syntax error")
    func jsonErrors() {
        #expect(
            failure(#"[{"sku":"a","name":"A","price":"1"},{"sku":"b","name":"B","price":true}]"#)
                == #"p.csv: index 1: "price" must be a decimal string such as "12.99"."#)
        #expect(
            failure(#"[{"sku":"a","name":"A","price":"1","colour":"red"}]"#)?.hasPrefix(
                #"p.csv: index 0: Unknown key "colour""#) == true)
        #expect(
            failure(#"[{"sku":"a","name":"A","price":"1e2"}]"#)?.hasPrefix("p.csv: index 0: Invalid amount '1e2'")
                == true)
        #expect(
            failure(#"[{"sku":"a","name":"A","price":"1","stock":1.5}]"#)?.hasPrefix(#"p.csv: index 0: "stock""#)
                == true)
        #expect(failure("[\n1,\n]") == "p.csv:3:1: Expected a value.")
        #expect(failure(#"[{"sku":1}]"#) == #"p.csv: index 0: "sku" must be a string."#)
        #expect(
            failure(#"[{"sku":"a","name":"A","price":"1","stock":-1}]"#)
                == #"p.csv: index 0: "stock" -1 must be a whole number of at least 0, or null."#)
    }

    @Test("a stock too large for the tool says so, rather than that it must be a whole number")
    func stockTooLarge() {
        #expect(
            failure(#"[{"sku":"a","name":"A","price":"1","stock":99999999999999999999}]"#)
                == #"p.csv: index 0: "stock" 99999999999999999999 is too large; at most 9223372036854775807."#)
        #expect(
            failure("sku,name,price,stock\na,A,1,99999999999999999999\n")
                == "p.csv:2: Stock '99999999999999999999' is too large; at most 9223372036854775807.")
    }
}
