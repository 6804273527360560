/// Text made safe for HTML, in element content and in quoted attribute values alike.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character references.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A byte count as iOS writes sizes: `512 bytes`, `48 KB`, `1.2 MB` (1,000 bytes a kilobyte).
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(Int((Double(bytes) / 1000).rounded())) KB" }
        let mb = Double(bytes) / 1_000_000
        return mb < 10 ? "\((mb * 10).rounded() / 10) MB" : "\(Int(mb.rounded())) MB"
    }
}
