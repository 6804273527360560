/// The platform's network, chosen here and nowhere else: ``CurlTransport`` on Linux (libcurl,
/// opened on the first transfer), elsewhere ``URLSessionTransport`` (on Apple platforms,
/// Foundation's own URLSession).
public enum PlatformNetwork {
    /// A transport to the network for this platform. Keep one and share it: on Apple
    /// platforms it is a URLSession; on Linux making one costs nothing and loads nothing.
    public static func make() -> any Transport {
        #if os(Linux)
        CurlTransport()
        #else
        URLSessionTransport()
        #endif
    }
}
