// Declarations of Apple's Foundation that swift-corelibs-foundation lacks, as Apple's
// documentation gives them, for type-checking only. They are declared here because the code
// type-checked imports this module beside Foundation.
import Foundation

extension ProcessInfo {
    /// Runs `block` while the process may not be suspended; calls it again with `true` when it
    /// is about to be (iOS, not macOS).
    @available(macOS, unavailable)
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}
}

extension FileManager {
    /// The container folder of an App Group the process belongs to, or nil.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { nil }
}
