import Foundation

extension ResponseHead {
    /// A head with `status` and the header lines `bytes` as received (`Name: value` each,
    /// ended by CRLF or LF): a line that starts with a space or tab continues the one before
    /// (obsolete line folding), a line without a colon is skipped, and a header that comes
    /// more than once has its values joined with `, ` in the order they came.
    init(status: Int, headerLines bytes: UnsafeRawBufferPointer) {
        var values: [String: String] = [:]
        var last: String?
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if let first = line.first, first == " " || first == "\t" {
                let more = line.trimmingCharacters(in: .whitespaces)
                if let last, let previous = values[last], !more.isEmpty {
                    values[last] = previous.isEmpty ? more : "\(previous) \(more)"
                }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            values[name] = values[name].map { "\($0), \(value)" } ?? value
            last = name
        }
        self.init(status: status, headers: values)
    }
}
