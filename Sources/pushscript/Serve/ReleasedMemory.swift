import Glibc

/// Gives memory the allocator holds free back to the system, so that closed Lua states lower
/// the resident size and not only the heap's use (glibc's `malloc_trim`, looked up once: the
/// Glibc module does not declare it).
enum ReleasedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trimFunction: Trim? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    static func trim() {
        _ = trimFunction?(0)
    }
}
