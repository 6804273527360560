#if os(Linux)
import CCurl

extension CurlTransfer {
    /// What a transfer that ended with `result` reports: nil when complete, else the error,
    /// worded as ``URLSessionTransport`` words the same failures.
    static func error(for result: ps_curl_result) -> DownloadError? {
        let message = withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                .split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        switch result.outcome {
        case PS_CURL_COMPLETE:
            return nil
        case PS_CURL_STOPPED:
            return DownloadError(.network, "the transfer was cancelled")
        case PS_CURL_UNAVAILABLE:
            return DownloadError(.network, message)
        case PS_CURL_TIMED_OUT:
            return DownloadError(.timeout, "the connection timed out")
        case PS_CURL_CANNOT_CONNECT:
            return DownloadError(.network, "cannot connect to the host")
        case PS_CURL_CANNOT_RESOLVE:
            return DownloadError(.network, "cannot find the host")
        case PS_CURL_INSECURE:
            return DownloadError(.network, "the secure connection failed (\(message))")
        case PS_CURL_CONNECTION_LOST:
            return DownloadError(.network, "the connection was lost before the whole body arrived")
        default:
            return DownloadError(.network, result.code == 0 ? message : "\(message) (curl \(result.code))")
        }
    }
}
#endif
