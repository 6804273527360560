#if os(Linux)
import CCurl
import Foundation

/// One transfer of a ``CurlTransport``: performs it (`ps_curl_perform`, blocking) on the
/// thread that calls ``run(timeoutSeconds:)``, and is the handle that cancels it.
///
/// A cancel throws the transfer's stop switch (`ps_curl_stop`), which every report checks
/// and which wakes the transfer's wait for the network, so it stops at once; from the cancel
/// on, nothing more is reported.
final class CurlTransfer: TransferHandle, Sendable {
    let request: TransferRequest
    let receiver: any TransferReceiver
    /// The libcurl to use, as `dlopen` takes its name.
    let library: String
    /// The stop switch, thread-safe in C; freed with the transfer.
    private nonisolated(unsafe) let stop: OpaquePointer

    init(request: TransferRequest, receiver: any TransferReceiver, library: String) {
        self.request = request
        self.receiver = receiver
        self.library = library
        guard let stop = ps_curl_stop_new() else { fatalError("out of memory for a transfer's stop switch") }
        self.stop = stop
    }

    deinit {
        ps_curl_stop_free(stop)
    }

    func cancel() {
        ps_curl_stop_throw(stop)
    }

    private var isCancelled: Bool { ps_curl_stop_thrown(stop) }

    /// Performs the transfer, reporting to the receiver, and returns when it has ended;
    /// libcurl gives up after `timeoutSeconds` (0: never).
    func run(timeoutSeconds: Int) {
        let error: DownloadError?
        if let refused = Self.refusedHeader(in: request) {
            error = refused
        } else {
            error = Self.error(for: perform(timeoutSeconds: timeoutSeconds))
        }
        guard !isCancelled else { return }
        receiver.finish(error: error)
    }

    /// The header lines sent: the request's, then `Accept-Encoding: identity` in place of any
    /// the request has, so that the body comes as sent, and for a body an empty `Expect:`, so
    /// that curl does not wait for a `100 Continue`. A value of blanks only is sent as an empty
    /// one (`Name;`): curl drops a `Name: ` line with nothing but blanks after the colon.
    static func headerLines(for request: TransferRequest) -> [String] {
        let replaced: Set<String> = request.method == "GET" ? ["accept-encoding"] : ["accept-encoding", "expect"]
        var lines = request.headers.sorted { $0.key < $1.key }
            .filter { !replaced.contains($0.key.lowercased()) }
            .map { $0.value.allSatisfy { $0 == " " || $0 == "\t" } ? "\($0.key);" : "\($0.key): \($0.value)" }
        lines.append("Accept-Encoding: identity")
        if request.method != "GET" { lines.append("Expect:") }
        return lines
    }

    /// Why a header of `request` cannot be sent as one line (a line break or NUL in its name or
    /// value), or nil: curl would send it as it is.
    static func refusedHeader(in request: TransferRequest) -> DownloadError? {
        let breaks: Set<UInt8> = [0x0A, 0x0D, 0x00]
        for (name, value) in request.headers where (name.utf8.contains { breaks.contains($0) } || value.utf8.contains { breaks.contains($0) }) {
            return DownloadError(.network, "the header \(name.debugDescription) is not one line")
        }
        return nil
    }

    // MARK: - Performing

    /// Runs `ps_curl_perform` with this transfer as the callbacks' context.
    private func perform(timeoutSeconds: Int) -> ps_curl_result {
        let lines = Self.headerLines(for: request).map { UnsafePointer(strdup($0)) }
        defer { lines.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        var callbacks = ps_curl_callbacks(
            context: Unmanaged.passUnretained(self).toOpaque(),
            head: { context, status, lines, length in
                CurlTransfer.of(context).receiveHead(status: Int(status), lines: UnsafeRawBufferPointer(start: lines, count: length))
            },
            body: { context, bytes, length in
                CurlTransfer.of(context).receiveBody(bytes, length)
            })
        return withExtendedLifetime(self) {
            request.url.absoluteString.withCString { url in
                request.method.withCString { method in
                    request.body.withUnsafeBytes { body in
                        lines.withUnsafeBufferPointer { headers in
                            var request = ps_curl_request(
                                url: url, method: method, headers: headers.baseAddress, header_count: headers.count,
                                body: body.baseAddress, body_length: body.count, timeout_seconds: timeoutSeconds)
                            return ps_curl_perform(library, &request, &callbacks, stop)
                        }
                    }
                }
            }
        }
    }

    /// The transfer a callback's context points at.
    private static func of(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    private func receiveHead(status: Int, lines: UnsafeRawBufferPointer) -> Bool {
        guard !isCancelled else { return false }
        return receiver.receive(head: ResponseHead(status: status, headerLines: lines))
    }

    private func receiveBody(_ bytes: UnsafeRawPointer?, _ length: Int) -> Bool {
        guard !isCancelled, let bytes else { return false }
        return receiver.receive(chunk: Data(bytes: bytes, count: length))
    }
}
#endif
