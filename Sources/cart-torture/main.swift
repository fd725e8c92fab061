import CartCore
import CartSQLite
import Foundation

// cart-torture: kills a busy writer with SIGKILL at random moments and checks after every
// kill that the SQLite file lost nothing it acknowledged and holds no half-done checkout.
//
//   cart-torture run --db PATH [--kills N] [--seed N] [--max-delay-ms N]
//   cart-torture worker --db PATH --seed N      (the child; prints one line per commit)
//   cart-torture probe --db PATH [--only reads] [--busy-timeout-ms N]
//                                               (every service operation once; see ServiceProbe)

let usage = """
    Usage: cart-torture run --db PATH [--kills N] [--seed N] [--max-delay-ms N]
           cart-torture worker --db PATH --seed N
           cart-torture probe --db PATH [--only reads] [--busy-timeout-ms N]
    """

var parsed: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
let mode = arguments.popFirst() ?? ""
while let name = arguments.popFirst() {
    guard name.hasPrefix("--"), let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("Error: unexpected '\(name)'\n\(usage)\n".utf8))
        exit(64)
    }
    parsed[String(name.dropFirst(2))] = value
}
let options = parsed

func intOption(_ name: String, default value: Int) -> Int {
    guard let text = options[name] else { return value }
    guard let number = Int(text), number >= 0 else {
        FileHandle.standardError.write(Data("Error: --\(name) takes a whole number; got '\(text)'\n".utf8))
        exit(64)
    }
    return number
}

guard let path = options["db"] else {
    FileHandle.standardError.write(Data("Error: --db is required\n\(usage)\n".utf8))
    exit(64)
}

do {
    switch mode {
    case "probe":
        ServiceProbe(
            path: path, readsOnly: options["only"] == "reads",
            busyTimeout: .milliseconds(intOption("busy-timeout-ms", default: 10_000))
        ).run()
    case "worker":
        try TortureWorker(path: path, seed: UInt64(intOption("seed", default: 1))).run()
    case "run":
        let kills = intOption("kills", default: 200)
        let report = try TortureRun(
            path: path, kills: kills, seed: UInt64(intOption("seed", default: Int(Date().timeIntervalSince1970))),
            maxDelayMilliseconds: intOption("max-delay-ms", default: 150)
        ).run()
        print(report)
    default:
        FileHandle.standardError.write(Data("Error: unknown mode '\(mode)'\n\(usage)\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
