import Foundation

/// The Swift of a Markdown page: each block fenced as ```` ```swift ````, in order.
struct SwiftBlock: Sendable, CustomStringConvertible {
    /// The page, relative to the repository.
    let page: String
    /// The line of the page the block's code starts on.
    let line: Int
    /// The code.
    let code: String

    var description: String { "\(page):\(line)" }

    /// Whether the block is a package manifest.
    var isManifest: Bool { code.contains("import PackageDescription") }

    /// The blocks of `page`.
    static func blocks(of page: String) throws -> [SwiftBlock] {
        let text = try String(contentsOf: SwiftTypeChecker.root.appendingPathComponent(page), encoding: .utf8)
        var blocks: [SwiftBlock] = []
        var current: (line: Int, lines: [String])?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if var block = current {
                if line.hasPrefix("```") {
                    blocks.append(SwiftBlock(page: page, line: block.line, code: block.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    block.lines.append(line)
                    current = block
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = (index + 2, [])
            }
        }
        return blocks
    }
}
