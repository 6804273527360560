/// The closing line of `check` and `lint`, on standard error so that standard output holds only
/// the findings: `3 files, no findings`, `2 files, 1 error, 2 warnings`, `2 files, 1 unreadable,
/// no findings`.
struct FindingSummary {
    var files = 0
    var unreadable = 0
    var errors = 0
    var warnings = 0

    var line: String {
        var parts = [Self.count(files, "file")]
        if unreadable > 0 { parts.append("\(unreadable) unreadable") }
        if errors == 0, warnings == 0 {
            parts.append("no findings")
        } else {
            if errors > 0 { parts.append(Self.count(errors, "error")) }
            if warnings > 0 { parts.append(Self.count(warnings, "warning")) }
        }
        return parts.joined(separator: ", ")
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

extension FindingSummary {
    /// `check`'s and `lint`'s status: a file that cannot be read first, then an error.
    var exitStatus: ExitStatus {
        unreadable > 0 ? .usageError : (errors > 0 ? .failuresFound : .success)
    }
}
