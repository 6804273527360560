import Foundation
import TestSupport

/// A payload with a title and body, mutable content.
let plainPayload = #"{"aps": {"alert": {"title": "original", "body": "original"}, "mutable-content": 1}}"#

/// A fresh folder holding a script, `rules.lua`, with `source`, and `p.json`, ``plainPayload``.
func scriptAndPayload(_ source: String) throws -> ScriptAndPayload {
    let folder = try TemporaryFolder()
    return ScriptAndPayload(folder: folder, script: try folder.write("rules.lua", source), payload: try folder.write("p.json", plainPayload))
}

/// A folder with a script and a payload, removed when the last reference to it goes.
struct ScriptAndPayload {
    let folder: TemporaryFolder
    /// The script's path.
    let script: String
    /// The payload's path.
    let payload: String

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try folder.write(name, text) }
    /// Writes `data` to `name` in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String { try folder.write(name, data) }
    /// The path of `name` in the folder.
    func path(_ name: String) -> String { folder.path(name) }
    /// The folder's URL.
    var url: URL { folder.url }
}

/// The smallest file the type sniffing takes for a JPEG.
let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9])

/// Parses JSON text into Foundation values.
func parseJSON(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw CocoaError(.propertyListReadCorrupt)
    }
    return object
}

/// The keys of a pretty-printed JSON object at one indentation, in the order written, between
/// the line that opens `under` (or the start) and the end of that object.
func keysInOrder(_ pretty: String, indent: Int, under parent: String? = nil) -> [String] {
    var lines = pretty.split(separator: "\n").map(String.init)
    if let parent {
        let opener = String(repeating: " ", count: indent - 2) + "\"\(parent)\": {"
        guard let start = lines.firstIndex(of: opener) else { return [] }
        lines = Array(lines[(start + 1)...])
        let closer = String(repeating: " ", count: indent - 2) + "}"
        if let end = lines.firstIndex(where: { $0 == closer || $0 == closer + "," }) { lines = Array(lines[..<end]) }
    }
    let prefix = String(repeating: " ", count: indent) + "\""
    return lines.compactMap { line in
        guard line.hasPrefix(prefix), let close = line.dropFirst(prefix.count).firstIndex(of: "\"") else { return nil }
        return String(line[line.index(line.startIndex, offsetBy: prefix.count)..<close])
    }
}

/// A fresh folder in the temporary directory holding `files` (relative path → text), for a
/// command run in it with relative paths.
func folder(_ files: [String: String]) throws -> URL {
    let root = try TemporaryFolder.make("pushscript-cli")
    for (path, text) in files {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
    return root
}
