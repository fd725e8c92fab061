/// A strict RFC 4180 reader: comma-separated fields, records ending in CRLF, LF or a lone CR
/// (as old Mac spreadsheets write), quoted fields that may hold commas, doubled quotes and
/// line breaks. Text must be valid UTF-8; one leading UTF-8 byte order mark is skipped, as
/// spreadsheet programs write one.
///
/// Errors name the line of the file where the problem is, counting from 1; a quote never
/// closed is named at the line where its record starts.
struct CSVReader {
    /// One record and the line it starts on.
    struct Record: Equatable {
        let line: Int
        let fields: [String]
    }

    /// What is wrong, and where.
    struct Problem: Error, Equatable {
        let line: Int
        let message: String
    }

    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    /// Every record; blank lines are skipped.
    func records() throws(Problem) -> [Record] {
        var records: [Record] = []
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        while index < bytes.count {
            let recordLine = line
            var fields: [String] = []
            var endOfRecord = false
            while !endOfRecord {
                let fieldLine = line
                var raw: [UInt8] = []
                if index < bytes.count, bytes[index] == Self.quote {
                    index += 1
                    var closed = false
                    while index < bytes.count {
                        let byte = bytes[index]
                        index += 1
                        if byte == Self.quote {
                            if index < bytes.count, bytes[index] == Self.quote {
                                raw.append(Self.quote)
                                index += 1
                            } else {
                                closed = true
                                break
                            }
                        } else {
                            if byte == Self.lf { line += 1 }
                            raw.append(byte)
                        }
                    }
                    guard closed else {
                        throw Problem(line: recordLine, message: "A quoted field is never closed.")
                    }
                    if index < bytes.count, ![Self.comma, Self.cr, Self.lf].contains(bytes[index]) {
                        // A quote that seems to close a field lines later is, almost always, the
                        // opening quote of a later field: the mistake is where the record began.
                        guard line == fieldLine else {
                            throw Problem(
                                line: recordLine,
                                message: "A quoted field is never closed: read as one field, it runs on to line \(line).")
                        }
                        throw Problem(line: line, message: "Unexpected character after a closing quote.")
                    }
                } else {
                    while index < bytes.count, ![Self.comma, Self.cr, Self.lf].contains(bytes[index]) {
                        if bytes[index] == Self.quote {
                            throw Problem(
                                line: line, message: "A quote inside an unquoted field; quote the whole field.")
                        }
                        raw.append(bytes[index])
                        index += 1
                    }
                }
                guard let field = String(validating: raw, as: UTF8.self) else {
                    throw Problem(line: fieldLine, message: "The text is not valid UTF-8.")
                }
                fields.append(field)
                if index >= bytes.count {
                    endOfRecord = true
                } else if bytes[index] == Self.comma {
                    index += 1
                } else {
                    // CRLF, LF, or a lone CR: each ends the record.
                    if bytes[index] == Self.cr, index + 1 < bytes.count, bytes[index + 1] == Self.lf { index += 1 }
                    index += 1
                    line += 1
                    endOfRecord = true
                }
            }
            if fields != [""] { records.append(Record(line: recordLine, fields: fields)) }
        }
        return records
    }
}
