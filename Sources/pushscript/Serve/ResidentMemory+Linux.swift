#if os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's resident memory, as Linux counts it (`/proc/self/statm`).
enum ResidentMemory {
    /// Resident bytes now; 0 when they cannot be read.
    static func bytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
#endif
