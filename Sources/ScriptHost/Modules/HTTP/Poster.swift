import Dispatch
import Foundation
import LuaSandbox
import MediaDownloader
import Synchronization

/// Sends one post through the host's transport — the one seam that downloads use too: a
/// fixture's answer when one covers the URL, else the network, or no network when offline —
/// and waits for its answer on the calling (Lua) thread, until a deadline. Redirects are
/// refused, and a response larger than 64 KB is cut off and failed.
enum Poster {
    /// The answer: a status and a body, or why there is none.
    typealias Outcome = Result<(status: Int, body: [UInt8]), PostFailure>

    /// `wait` cuts the wait for the answer short when it is cancelled (the request's deadline
    /// or an expiry came).
    static func post(
        _ url: URL, body: [UInt8], options: PostOptions, through transport: any Transport, until deadline: Deadline,
        wait: HostWait = HostWait()
    ) -> Outcome {
        guard deadline.nanoseconds > Deadline.now().nanoseconds else {
            return .failure(PostFailure("timeout: no time is left before the deadline"))
        }
        var headers = options.headers
        headers["Content-Type"] = options.contentType
        let response = PostResponse()
        let transfer = transport.startTransfer(TransferRequest(url: url, method: options.method, headers: headers, body: body), to: response)
        let finished = wait.wait(for: response.done, until: deadline)
        guard finished else {
            transfer.cancel()
            return .failure(PostFailure("timeout: no answer before the deadline"))
        }
        return response.outcome ?? .failure(PostFailure("network: the post did not finish"))
    }
}

/// Takes a post's response: its status and body in memory, refusing a redirect and cutting
/// the body off past 64 KB.
final class PostResponse: TransferReceiver {
    /// Signalled when the response has ended.
    let done = DispatchSemaphore(value: 0)
    private struct State {
        var status = 0
        var body: [UInt8] = []
        var failure: PostFailure?
        var outcome: Poster.Outcome?
    }

    private let state = Mutex(State())

    /// How the post ended, once it has.
    var outcome: Poster.Outcome? { state.withLock { $0.outcome } }

    func receive(head: ResponseHead) -> Bool {
        state.withLock { s in
            s.status = head.status
            guard (300..<400).contains(head.status) else { return true }
            s.failure = PostFailure("not allowed: the server redirected (\(head.status)); posts follow no redirects")
            return false
        } ? true : end()
    }

    func receive(chunk: Data) -> Bool {
        state.withLock { s in
            guard s.failure == nil else { return false }
            guard s.body.count + chunk.count <= PostPolicy.maximumBytes else {
                s.failure = PostFailure("too large: the response is more than \(PostPolicy.maximumBytes) bytes")
                return false
            }
            s.body.append(contentsOf: chunk)
            return true
        } ? true : end()
    }

    func finish(error: DownloadError?) {
        state.withLock { s in
            guard s.outcome == nil else { return }
            if let failure = s.failure {
                s.outcome = .failure(failure)
            } else if let error {
                s.outcome = .failure(PostFailure(error.message))
            } else {
                s.outcome = .success((s.status, s.body))
            }
        }
        done.signal()
    }

    /// Ends the response with its failure (the transport is told to stop).
    private func end() -> Bool {
        finish(error: nil)
        return false
    }
}
