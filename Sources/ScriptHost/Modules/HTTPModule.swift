import Foundation
import LuaSandbox

/// `http.post(url, body [, options])` → `status, responseBody` or `nil, err`: the delivery
/// receipts push providers' extensions send. Only `https`, only to the hosts the host allows
/// (`--allow-post`), bodies and responses of at most 64 KB, no redirects, within the request's
/// deadline (the script is stopped when the deadline comes during a post), and never while
/// `bestAttempt` runs. Each post that leaves the policy's checks is recorded in the result's
/// `posts`.
extension HostedSandbox {
    func installHTTP() {
        function("post", in: "http") { [unowned self] binding, call in
            Arguments.text(call, 0, "post").then { url in
                guard case .string(let body) = call[1] else {
                    return .error("bad argument #2 to 'post' (string expected, got \(Arguments.describe(call[1]))); encode a table with json.encode")
                }
                let options: (contentType: String, timeout: Duration?)
                switch Self.postOptions(call[2]) {
                case .success(let o): options = o
                case .failure(let f): return .error(f.message)
                }
                return post(url, body: body.bytes, options: options, binding: binding)
            }
        }
    }

    private func post(_ text: String, body: [UInt8], options: (contentType: String, timeout: Duration?), binding: Binding) -> HostReturn {
        let run = binding.run
        guard binding.phase == .didReceive else { return .values([.nil, .text("deadline: no post may start while bestAttempt runs")]) }
        guard !run.deadline.hasPassed, !run.isCancelled else { return .kill(.time) }
        let url: URL
        switch run.postPolicy.check(text) {
        case .success(let checked): url = checked
        case .failure(let failure): return .values([.nil, .text(failure.message)])
        }
        guard body.count <= PostPolicy.maximumBytes else {
            return .values([.nil, .text("too large: the body is \(body.count) bytes; a post may send at most \(PostPolicy.maximumBytes)")])
        }
        let record = PostRecord(url: url.absoluteString, body: String(decoding: body, as: UTF8.self), contentType: options.contentType)
        _ = run.write(binding.phase) { $0.posts.append(record) }
        var until = run.deadline
        if let timeout = options.timeout, Deadline.now().advanced(by: timeout) < until { until = Deadline.now().advanced(by: timeout) }
        let outcome = Poster.post(
            url, body: body, contentType: options.contentType, answers: run.http, offline: services.configuration.offline, until: until)
        // The host may have given up on this phase, or the deadline came, while it waited.
        guard active != nil, !run.deadline.hasPassed else { return .kill(.time) }
        switch outcome {
        case .success(let answer): return .values([.integer(Int64(answer.status)), .string(LuaString(bytes: answer.body))])
        case .failure(let failure): return .values([.nil, .text(failure.message)])
        }
    }

    /// `{contentType = "application/json", timeout = seconds}`.
    private static func postOptions(_ value: LuaOutput) -> Result<(contentType: String, timeout: Duration?), HostFailure> {
        var contentType = "application/json"
        var timeout: Duration?
        switch value {
        case .nil: return .success((contentType, timeout))
        case .table(let table):
            for pair in table.pairs {
                switch pair.key.stringValue {
                case "contentType":
                    guard let text = pair.value.stringValue, !text.isEmpty, !text.contains("\r"), !text.contains("\n") else {
                        return .failure(HostFailure("bad argument #3 to 'post' (contentType must be a one-line string)"))
                    }
                    contentType = text
                case "timeout":
                    guard let seconds = pair.value.numberValue, seconds > 0, seconds.isFinite else {
                        return .failure(HostFailure("bad argument #3 to 'post' (timeout must be a number of seconds > 0)"))
                    }
                    timeout = .milliseconds(Int64(min(seconds, 86_400) * 1000))
                default:
                    return .failure(HostFailure("bad argument #3 to 'post' (unknown option '\(pair.key.stringValue ?? pair.key.typeName)'; it takes contentType, timeout)"))
                }
            }
            if !table.elements.isEmpty { return .failure(HostFailure("bad argument #3 to 'post' (options are {contentType=, timeout=})")) }
            return .success((contentType, timeout))
        default:
            return .failure(HostFailure("bad argument #3 to 'post' (table expected, got \(Arguments.describe(value)))"))
        }
    }
}
