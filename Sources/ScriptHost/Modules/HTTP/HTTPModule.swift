import Foundation
import LuaSandbox

/// `http.post(url, body [, options])` → `status, responseBody` or `nil, err`: the delivery
/// receipts push providers' extensions send (a `POST`, or a `PUT` with `method = "PUT"`). Only `https`, only to the hosts the host allows
/// (`--allow-post`), bodies and responses of at most 64 KB, no redirects, within the request's
/// deadline (the script is stopped when the deadline comes, or the system's time runs out,
/// during a post), and never while `bestAttempt` runs; in `afterDelivery` too. Each post that
/// leaves the policy's checks is recorded in the result's `posts` (marked `after` when made
/// after delivery), within the request's record budget: past it, the post is refused unsent.
struct HTTPModule: ScriptModule {
    unowned let host: ModuleHost

    func install() {
        host.function("post", in: "http") { binding, call in
            Arguments.text(call, 0, "post").then { url in
                guard case .string(let body) = call[1] else {
                    return .error("bad argument #2 to 'post' (string expected, got \(Arguments.describe(call[1]))); encode a table with json.encode")
                }
                let options: PostOptions
                switch Self.postOptions(call[2]) {
                case .success(let o): options = o
                case .failure(let f): return .error(f.message)
                }
                return post(url, body: body.bytes, options: options, binding: binding)
            }
        }
    }

    private func post(_ text: String, body: [UInt8], options: PostOptions, binding: Binding) -> HostReturn {
        let run = binding.run
        guard binding.phase == .didReceive || binding.phase == .afterDelivery else {
            return .values([.nil, .text("deadline: no post may start while bestAttempt runs")])
        }
        guard !run.deadline.hasPassed, !run.isCancelled else { return .kill(.time) }
        let url: URL
        switch run.postPolicy.check(text) {
        case .success(let checked): url = checked
        case .failure(let failure): return .values([.nil, .text(failure.message)])
        }
        guard body.count <= PostPolicy.maximumBytes else {
            return .values([.nil, .text("too large: the body is \(body.count) bytes; a post may send at most \(PostPolicy.maximumBytes)")])
        }
        let record = PostRecord(
            url: url.absoluteString, body: String(decoding: body, as: UTF8.self), contentType: options.contentType,
            method: options.method, headers: options.headers, after: binding.phase == .afterDelivery)
        let recording = run.record(PostRecords.self, in: binding.phase) { posts, budget in
            if let refusal = budget.take(record.recordedBytes, for: "the post") { return .refused(refusal) }
            posts.records.append(record)
            return .recorded
        }
        switch recording {
        case .recorded: break
        case .refused(let message): return .values([.nil, .text(message)])
        case .phaseOver: return .kill(.time)
        }
        var until = run.deadline
        if let timeout = options.timeout, Deadline.now().advanced(by: timeout) < until { until = Deadline.now().advanced(by: timeout) }
        let wait = HostWait()
        guard let waitID = run.beginWait(cancel: { wait.cancel() }) else { return .kill(.time) }
        let outcome = Poster.post(url, body: body, options: options, through: host.services.transport(for: run.answers), until: until, wait: wait)
        run.endWait(waitID)
        // The host may have given up on this phase, or the deadline came, while it waited.
        guard host.active != nil, !run.deadline.hasPassed, !run.isCancelled else { return .kill(.time) }
        switch outcome {
        case .success(let answer): return .values([.integer(Int64(answer.status)), .string(LuaString(bytes: answer.body))])
        case .failure(let failure): return .values([.nil, .text(failure.message)])
        }
    }

    /// `{method = "POST", contentType = "application/json", headers = {NAME = VALUE}, timeout = seconds}`.
    private static func postOptions(_ value: LuaOutput) -> Result<PostOptions, HostFailure> {
        var options = PostOptions()
        func bad(_ text: String) -> Result<PostOptions, HostFailure> { .failure(HostFailure("bad argument #3 to 'post' (\(text))")) }
        switch value {
        case .nil: return .success(options)
        case .table(let table):
            for pair in table.pairs {
                switch pair.key.stringValue {
                case "method":
                    guard let text = pair.value.stringValue, PostOptions.methods.contains(text) else {
                        return bad("method must be \"POST\" or \"PUT\"")
                    }
                    options.method = text
                case "contentType":
                    guard let text = pair.value.stringValue, !text.isEmpty, !text.contains("\r"), !text.contains("\n") else {
                        return bad("contentType must be a one-line string")
                    }
                    options.contentType = text
                case "headers":
                    switch headers(pair.value) {
                    case .success(let headers): options.headers = headers
                    case .failure(let failure): return bad(failure.message)
                    }
                case "timeout":
                    guard let seconds = pair.value.numberValue, seconds > 0, seconds.isFinite else {
                        return bad("timeout must be a number of seconds > 0")
                    }
                    options.timeout = .milliseconds(Int64(min(seconds, 86_400) * 1000))
                default:
                    return bad("unknown option '\(pair.key.stringValue ?? pair.key.typeName)'; it takes method, contentType, headers, timeout")
                }
            }
            if !table.elements.isEmpty { return bad("options are {method=, contentType=, headers=, timeout=}") }
            return .success(options)
        default:
            return bad("table expected, got \(Arguments.describe(value))")
        }
    }

    /// `{["Authorization"] = "Basic …"}`: names and values are strings, a few of them.
    private static func headers(_ value: LuaOutput) -> Result<[String: String], HostFailure> {
        guard case .table(let table) = value, table.elements.isEmpty else {
            return .failure(HostFailure("headers must be a table of names to strings"))
        }
        var headers: [String: String] = [:]
        var bytes = 0
        for pair in table.pairs {
            guard let name = pair.key.stringValue, let text = pair.value.stringValue else {
                return .failure(HostFailure("headers must be a table of names to strings"))
            }
            if let problem = PostOptions.problem(name: name, value: text) { return .failure(HostFailure(problem)) }
            headers[name] = text
            bytes += name.utf8.count + text.utf8.count
        }
        guard headers.count <= PostOptions.maximumHeaders, bytes <= PostOptions.maximumHeaderBytes else {
            return .failure(HostFailure("at most \(PostOptions.maximumHeaders) headers of \(PostOptions.maximumHeaderBytes) bytes in all"))
        }
        return .success(headers)
    }
}
