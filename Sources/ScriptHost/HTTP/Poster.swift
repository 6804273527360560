import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LuaSandbox
import Synchronization

/// Sends one post and waits for its answer on the calling (Lua) thread, until a deadline:
/// from a fixture's answer when one is given for the URL, else over the network unless the
/// host is offline. Redirects are refused, and a response larger than 64 KB is cut off and
/// failed.
enum Poster {
    /// The answer: a status and a body, or why there is none.
    typealias Outcome = Result<(status: Int, body: [UInt8]), PostFailure>

    /// `route` gives the address actually contacted for a checked URL (tests point it at a
    /// local server; the host leaves it nil, and scripts and the command line cannot set it).
    /// `wait` cuts the wait for the answer short when it is cancelled (the request's deadline
    /// or an expiry came).
    static func post(
        _ url: URL, body: [UInt8], options: PostOptions, answers: [String: PostAnswer], offline: Bool,
        route: (@Sendable (URL) -> URL)? = nil, until deadline: Deadline, wait: HostWait = HostWait()
    ) -> Outcome {
        if let answer = answers[url.absoluteString] {
            return answered(answer, until: deadline, wait: wait)
        }
        guard !offline else { return .failure(PostFailure("network: no answer for \(url.absoluteString) (offline)")) }
        return network(route?(url) ?? url, body: body, options: options, until: deadline, wait: wait)
    }

    private static let cancelled = PostFailure("timeout: the deadline came before the answer")

    private static func answered(_ answer: PostAnswer, until deadline: Deadline, wait: HostWait) -> Outcome {
        let ready = Deadline.now().advanced(by: .milliseconds(answer.delayMs))
        if ready.nanoseconds > deadline.nanoseconds {
            _ = wait.sleep(until: deadline)
            return .failure(PostFailure("timeout: no answer before the deadline"))
        }
        if wait.sleep(until: ready) { return .failure(cancelled) }
        if (300..<400).contains(answer.status) { return .failure(PostFailure("not allowed: the server redirected (\(answer.status)); posts follow no redirects")) }
        let bytes = Array(answer.body.utf8)
        if bytes.count > PostPolicy.maximumBytes {
            return .failure(PostFailure("too large: the response is more than \(PostPolicy.maximumBytes) bytes"))
        }
        return .success((answer.status, bytes))
    }

    private static func network(_ url: URL, body: [UInt8], options: PostOptions, until deadline: Deadline, wait: HostWait) -> Outcome {
        let left = Double(deadline.nanoseconds - Deadline.now().nanoseconds) / 1e9
        guard left > 0 else { return .failure(PostFailure("timeout: no time is left before the deadline")) }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: left)
        request.httpMethod = options.method
        request.httpBody = Data(body)
        for (name, value) in options.headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue(options.contentType, forHTTPHeaderField: "Content-Type")
        let delegate = PostDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        task.resume()
        let finished = wait.wait(for: delegate.done, until: deadline)
        if !finished { task.cancel() }
        session.invalidateAndCancel()
        guard finished else { return .failure(PostFailure("timeout: no answer before the deadline")) }
        return delegate.outcome.withLock { $0 } ?? .failure(PostFailure("network: the post did not finish"))
    }
}

/// Collects a post's response, refusing redirects and cutting it off past 64 KB.
private final class PostDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Poster.Outcome?>(nil)
    private let received = Mutex<(status: Int, body: [UInt8], failure: PostFailure?)>((0, [], nil))

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        received.withLock { $0.failure = PostFailure("not allowed: the server redirected (\(response.statusCode)); posts follow no redirects") }
        completionHandler(nil)
        task.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        received.withLock { $0.status = (response as? HTTPURLResponse)?.statusCode ?? 0 }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = received.withLock { state -> Bool in
            state.body.append(contentsOf: data)
            if state.body.count > PostPolicy.maximumBytes, state.failure == nil {
                state.failure = PostFailure("too large: the response is more than \(PostPolicy.maximumBytes) bytes")
                return true
            }
            return false
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let state = received.withLock { $0 }
        let result: Poster.Outcome
        if let failure = state.failure {
            result = .failure(failure)
        } else if let error {
            result = .failure(PostFailure("network: \(error.localizedDescription.lowercased())"))
        } else if (300..<400).contains(state.status) {
            result = .failure(PostFailure("not allowed: the server redirected (\(state.status)); posts follow no redirects"))
        } else {
            result = .success((state.status, state.body))
        }
        outcome.withLock { $0 = result }
        done.signal()
    }
}
