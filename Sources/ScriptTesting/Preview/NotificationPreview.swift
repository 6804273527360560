import Foundation
import NotificationModel
import ScriptHost

/// The delivered notification drawn as iOS shows it, as one self-contained HTML page
/// (`pushscript preview`): the banner, the expanded view with the category's buttons, and
/// below them how the run went (outcome, reason, log).
///
/// The page loads nothing: its style is inline and image attachments are inlined as `data:`
/// URLs, so the file can be mailed or attached to a ticket. Every text from the payload, the
/// script or the host is escaped.
public struct NotificationPreview: Sendable {
    /// What the request delivered.
    public var result: DeliveryResult
    /// The app's bundle identifier, if known.
    public var app: String?
    /// The app's categories (declared and registered), to find the buttons of the content's
    /// category.
    public var categories: [NotificationCategory]
    /// The script's name, shown in the page's title and footer.
    public var scriptName: String?

    /// A preview of a delivered result.
    public init(result: DeliveryResult, app: String?, categories: [NotificationCategory], scriptName: String? = nil) {
        self.result = result
        self.app = app
        self.categories = categories
        self.scriptName = scriptName
    }

    /// The name shown beside the app icon: the last part of the bundle identifier, capitalized
    /// (`com.example.news` → `News`), as the app's display name is not known.
    public var appName: String {
        guard let app, let last = app.split(separator: ".").last, !last.isEmpty else { return "App" }
        return last.prefix(1).uppercased() + last.dropFirst()
    }

    /// The content's category, when the app has it.
    public var category: NotificationCategory? {
        let id = result.content.categoryIdentifier
        guard !id.isEmpty else { return nil }
        return categories.first { $0.identifier == id }
    }

    /// The whole page.
    public func html() -> String {
        let content = result.content
        let image = content.attachments.first.flatMap { $0.kind == .image ? PreviewImage($0) : nil }
        let title = [content.title, appName].first { !$0.isEmpty } ?? appName
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escape(title)) — notification preview</title>
            <style>
            \(Self.style)\(image.map { ".attachment-image { background-image: url(\"\($0.dataURL)\"); }\n" } ?? "")</style>
            </head>
            <body>
            <main class="phone\(result.suppressed ? " suppressed" : "")">
            \(statusNotice())
            <section aria-label="banner">
            <h2 class="label">Banner</h2>
            \(banner(image: image))
            </section>
            <section aria-label="expanded">
            <h2 class="label">Expanded</h2>
            \(expanded(image: image))
            </section>
            </main>
            \(report())
            </body>
            </html>

            """
    }
}
