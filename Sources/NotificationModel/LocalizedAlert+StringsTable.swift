extension LocalizedAlert {
    /// Reads a strings table (`--strings`): a JSON object whose values are strings.
    ///
    /// - Throws: ``JSONError`` naming the first key whose value is not a string.
    public static func stringsTable(json: JSONValue) throws(JSONError) -> [String: String] {
        guard case .object(let members) = json else {
            throw JSONError("a strings table must be a JSON object of strings, not \(Payload.article(json.kindName))")
        }
        var table: [String: String] = [:]
        for key in members.keys.sorted() {
            guard let text = members[key]?.stringValue else {
                throw JSONError("strings table: '\(key)' must be a string")
            }
            table[key] = text
        }
        return table
    }
}
