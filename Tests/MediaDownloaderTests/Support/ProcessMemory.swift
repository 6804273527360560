import Foundation

/// The process's resident memory as Linux reports it in `/proc/self/status`.
enum ProcessMemory {
    /// The peak resident set size (`VmHWM`) in kB, or nil where `/proc` has none.
    static var peakKB: Int? { field("VmHWM") }

    /// The current resident set size (`VmRSS`) in kB.
    static var residentKB: Int? { field("VmRSS") }

    /// Resets the peak to the current resident size (writing `5` to `/proc/self/clear_refs`);
    /// false where that is not possible.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        return nil
    }
}
