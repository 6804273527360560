import Foundation

extension MediaDownloader {
    /// Requests `url`, following redirects that the policy allows, up to its maximum; a
    /// redirect back to a URL already visited is a loop and is refused at once.
    func follow(_ url: URL, control: DownloadControl, partialFile: URL,
                options: DownloadOptions) async -> TransferSink.Outcome {
        var current = url
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        while true {
            let sink = TransferSink(url: current, partialFile: partialFile, maxBytes: options.maxBytes, kinds: options.kinds)
            if let stopped = control.begin(sink) { return .failed(stopped) }
            let outcome = await sink.run(on: transport)
            guard case .redirect(let head) = outcome else { return outcome }
            redirects += 1
            guard redirects <= policy.maxRedirects else {
                return .failed(DownloadError(.notAllowed, "more than \(policy.maxRedirects) redirects"))
            }
            guard let location = head.location,
                  let target = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: current)?
                      .absoluteURL else {
                return .failed(DownloadError(.network, "redirect \(head.status) with an invalid Location"))
            }
            do {
                current = try policy.check(target)
            } catch {
                return .failed(DownloadError(.notAllowed, "redirect to '\(target.absoluteString)': \(error.detail)"))
            }
            guard visited.insert(current.absoluteString).inserted else {
                return .failed(DownloadError(.notAllowed, "redirect loop at '\(current.absoluteString)'"))
            }
        }
    }
}
