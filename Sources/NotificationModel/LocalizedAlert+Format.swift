extension LocalizedAlert {
    /// Fills a localized format as iOS does with string arguments: `%@` takes the next
    /// argument, `%n$@` the n-th (from 1), `%%` is `%`. An argument that is missing gives `""`;
    /// any other `%` sequence is kept as written.
    public static func format(_ format: String, arguments: [String]) -> String {
        var result = ""
        var next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let afterPercent = rest[rest.index(after: percent)...]
            if afterPercent.hasPrefix("%") {
                result += "%"
                rest = afterPercent.dropFirst()
            } else if afterPercent.hasPrefix("@") {
                result += argument(next, of: arguments)
                next += 1
                rest = afterPercent.dropFirst()
            } else if let (position, end) = positional(afterPercent) {
                result += argument(position - 1, of: arguments)
                rest = afterPercent[end...]
            } else {
                result += "%"
                rest = afterPercent
            }
        }
        return result + rest
    }

    private static func argument(_ index: Int, of arguments: [String]) -> String {
        arguments.indices.contains(index) ? arguments[index] : ""
    }

    /// `n$@` at the start of `text`: the position n (>= 1) and the index after the `@`.
    private static func positional(_ text: Substring) -> (Int, Substring.Index)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let position = Int(digits), position >= 1 else { return nil }
        let tail = text[digits.endIndex...]
        guard tail.hasPrefix("$@") else { return nil }
        return (position, tail.index(tail.startIndex, offsetBy: 2))
    }
}
