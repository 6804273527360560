/// The known name a misspelt one most likely meant, for "did you mean" hints: `didRecieve` →
/// `didReceive`, `providers.aply` → `apply`, `--cpu` → `--cpu-ms`.
///
/// A known name is near when it differs by few edits — an insertion, a deletion, a changed
/// character or two neighbours swapped each count one (the optimal string alignment
/// distance), a change of case alone a half. Names of fewer than 3 characters (leading dashes
/// not counted) have none. One edit is near; failing that, a
/// known name that starts with the given one (`--cpu` → `--cpu-ms`); failing that, two edits
/// for a name of more than 4 characters. The nearest wins; a tie goes to the one listed first.
public enum NearestName {
    /// The candidate nearest to `name`, or nil when none is near (or `name` is one of them).
    public static func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
        let given = Array(name)
        let length = name.drop { $0 == "-" }.count
        var best: (name: String, distance: Double)?
        var prefixed: String?
        for candidate in candidates {
            if candidate == name { return nil }
            let distance = Self.distance(given, Array(candidate))
            if distance <= 2, best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
            if prefixed == nil, candidate.hasPrefix(name) { prefixed = candidate }
        }
        guard length >= 3 else { return nil }
        if let best, best.distance <= 1 { return best.name }
        if let prefixed { return prefixed }
        if let best, length > 4 { return best.name }
        return nil
    }

    /// `did you mean 'X'?` for the nearest candidate, or nil.
    public static func hint(for name: String, among candidates: some Sequence<String>) -> String? {
        nearest(to: name, among: candidates).map { "did you mean '\($0)'?" }
    }

    /// Edits from `a` to `b`: insertions, deletions, substitutions and swaps of neighbours
    /// count 1, a change of case alone 0.5.
    static func distance(_ a: [Character], _ b: [Character]) -> Double {
        if a.isEmpty || b.isEmpty { return Double(max(a.count, b.count)) }
        var rows = [[Double]](repeating: [Double](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = Double(i) }
        for j in 0...b.count { rows[0][j] = Double(j) }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost: Double = a[i - 1] == b[j - 1] ? 0 : (a[i - 1].lowercased() == b[j - 1].lowercased() ? 0.5 : 1)
                var d = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, rows[i - 2][j - 2] + 1) }
                rows[i][j] = d
            }
        }
        return rows[a.count][b.count]
    }
}
