import Foundation
import NotificationModel
import ScriptHost

extension NotificationPreview {
    private static func e(_ text: String) -> String { HTMLText.escape(text) }

    /// How the run went: outcome and reason, the log, the content's other fields, the stats.
    func report() -> String {
        """
        <section class="report">
        <h2>Outcome</h2>
        \(outcome())
        <h2>Log</h2>
        \(log())
        <h2>Content</h2>
        \(fields())
        <p class="stats">\(stats())</p>
        </section>
        """
    }

    private func outcome() -> String {
        var out = "<p><span class=\"outcome \(result.outcome.rawValue)\">\(result.outcome.rawValue)</span>"
        if result.suppressed { out += " <span class=\"outcome suppressed\">suppressed</span>" }
        out += "</p>"
        if let reason = result.reason {
            out += "<p class=\"reason\"><b>\(Self.e(reason.kind.rawValue))</b>: \(Self.e(reason.message))</p>"
        }
        return out
    }

    private func log() -> String {
        guard !result.logs.isEmpty else { return "<p class=\"muted\">No log entries.</p>" }
        let rows = result.logs.map { entry in
            "<tr class=\"\(entry.level.rawValue)\"><td>\(entry.level.rawValue)</td><td>\(Self.e(entry.message))</td><td>\(Self.e(entry.source ?? "script"))</td></tr>"
        }
        return "<table class=\"log\">\n<tr><th>level</th><th>message</th><th>from</th></tr>\n\(rows.joined(separator: "\n"))\n</table>"
    }

    private func fields() -> String {
        let c = result.content
        var rows: [(String, String)] = app.map { [("app", $0)] } ?? []
        rows.append(("categoryIdentifier", c.categoryIdentifier.isEmpty ? "(none)" : c.categoryIdentifier + (category == nil ? " (not registered)" : "")))
        rows.append(("badge", c.badge.map(String.init) ?? "(unchanged)"))
        switch c.sound {
        case .none: rows.append(("sound", "(none)"))
        case .named(let name)?: rows.append(("sound", name))
        case .dictionary(let name, let critical, let volume)?:
            rows.append(("sound", "\(name)\(critical ? ", critical" : "")\(volume.map { ", volume \($0)" } ?? "")"))
        }
        rows.append(("interruptionLevel", c.interruptionLevel.rawValue))
        rows.append(("relevanceScore", String(c.relevanceScore)))
        if !c.threadIdentifier.isEmpty { rows.append(("threadIdentifier", c.threadIdentifier)) }
        if let target = c.targetContentIdentifier { rows.append(("targetContentIdentifier", target)) }
        if let filter = c.filterCriteria { rows.append(("filterCriteria", filter)) }
        if !c.launchImageName.isEmpty { rows.append(("launchImageName", c.launchImageName)) }
        if !c.summaryArgument.isEmpty || c.summaryArgumentCount != 0 {
            rows.append(("summaryArgument", "\(c.summaryArgument) (\(c.summaryArgumentCount))"))
        }
        for (i, a) in c.attachments.enumerated() {
            let file = URL(string: a.url)?.lastPathComponent ?? a.url
            rows.append(("attachments[\(i)]", "\(a.identifier) · \(a.type) · \(HTMLText.size(a.size)) · \(file)\(i > 0 ? " (iOS shows the first)" : "")"))
        }
        let body = rows.map { "<dt>\(Self.e($0.0))</dt><dd>\(Self.e($0.1))</dd>" }.joined(separator: "\n")
        return "<dl class=\"fields\">\n\(body)\n</dl>"
    }

    private func stats() -> String {
        let s = result.stats
        let script = scriptName.map { Self.e($0) + " · " } ?? ""
        return script + String(format: "CPU %.2f ms · wall %.1f ms", s.cpuMs, s.wallMs) + " · memory peak \(HTMLText.size(s.memoryPeakBytes))"
    }
}
