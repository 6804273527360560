import Foundation
import NotificationModel

extension NotificationPreview {
    private static func e(_ text: String) -> String { HTMLText.escape(text) }

    /// What iOS would not show, said above the drawings: a suppressed notification, or one
    /// without any alert text.
    func statusNotice() -> String {
        let content = result.content
        if result.suppressed {
            return """
                <p class="notice">Suppressed: the script called <code>content:suppress()</code>, so iOS shows nothing. \
                Drawn below is what the script left.</p>
                """
        }
        if content.title.isEmpty, content.subtitle.isEmpty, content.body.isEmpty {
            return "<p class=\"notice\">No title, subtitle or body: iOS shows no banner for this content.</p>"
        }
        return ""
    }

    /// The app icon placeholder: the app name's first letter on a tile.
    private func icon(_ size: String) -> String {
        "<div class=\"icon \(size)\" aria-hidden=\"true\">\(Self.e(String(appName.prefix(1))))</div>"
    }

    /// The line with the app's name and the time.
    private var header: String {
        var level = ""
        switch result.content.interruptionLevel {
        case .timeSensitive: level = "<span class=\"level\">Time Sensitive</span>"
        case .critical: level = "<span class=\"level critical\">Critical</span>"
        case .active, .passive: break
        }
        return "<div class=\"header\"><span class=\"app\">\(Self.e(appName))</span>\(level)<span class=\"time\">now</span></div>"
    }

    /// Title, subtitle and body; the body clamped to a few lines in the banner.
    private func texts(clamped: Bool) -> String {
        let content = result.content
        var out = ""
        if !content.title.isEmpty { out += "<div class=\"title\">\(Self.e(content.title))</div>" }
        if !content.subtitle.isEmpty { out += "<div class=\"subtitle\">\(Self.e(content.subtitle))</div>" }
        if !content.body.isEmpty { out += "<div class=\"body\(clamped ? " clamped" : "")\">\(Self.e(content.body))</div>" }
        return out
    }

    /// The banner: icon, app name and time, texts, and the first attachment's thumbnail.
    func banner(image: PreviewImage?) -> String {
        """
        <div class="notification banner">
        \(icon("large"))
        <div class="text">\(header)\(texts(clamped: true))</div>
        \(thumbnail(image: image))
        </div>
        """
    }

    /// The thumbnail of the first attachment, unless its options hide it: the image (clipped
    /// to `thumbnailClippingRect`), or a symbol for audio and video.
    private func thumbnail(image: PreviewImage?) -> String {
        guard let attachment = result.content.attachments.first, attachment.options.thumbnailHidden != true else { return "" }
        switch attachment.kind {
        case .image:
            guard image != nil else { return "<div class=\"thumbnail missing\" title=\"the file cannot be read\">?</div>" }
            var style = "background-size: cover; background-position: center;"
            if let rect = attachment.options.thumbnailClippingRect, rect.width > 0, rect.height > 0 {
                func position(_ offset: Double, _ extent: Double) -> Double { extent < 1 ? offset / (1 - extent) * 100 : 0 }
                style = String(
                    format: "background-size: %.3f%% %.3f%%; background-position: %.3f%% %.3f%%;",
                    100 / rect.width, 100 / rect.height, position(rect.x, rect.width), position(rect.y, rect.height))
            }
            return "<div class=\"thumbnail attachment-image\" style=\"\(style)\" role=\"img\" aria-label=\"thumbnail\"></div>"
        case .audio:
            return "<div class=\"thumbnail media\" role=\"img\" aria-label=\"audio\">♫</div>"
        case .video:
            return "<div class=\"thumbnail media\" role=\"img\" aria-label=\"video\">▶</div>"
        }
    }

    /// The expanded view: the first attachment large, the texts in full, then the category's
    /// buttons.
    func expanded(image: PreviewImage?) -> String {
        """
        <div class="notification expanded">
        \(largeAttachment(image: image))
        <div class="expanded-text">
        <div class="expanded-header">\(icon("small"))\(header)</div>
        \(texts(clamped: false))
        </div>
        </div>
        \(actions())
        """
    }

    private func largeAttachment(image: PreviewImage?) -> String {
        guard let attachment = result.content.attachments.first else { return "" }
        let file = URL(string: attachment.url)?.lastPathComponent ?? attachment.url
        let caption = "\(attachment.type) · \(HTMLText.size(attachment.size)) · \(file)"
        switch attachment.kind {
        case .image:
            guard let image else {
                return "<div class=\"media-placeholder\">Image (the file cannot be read)<small>\(Self.e(caption))</small></div>"
            }
            let ratio = image.size.map { "aspect-ratio: \($0.width) / \(max(1, $0.height));" } ?? "aspect-ratio: 4 / 3;"
            return "<div class=\"large attachment-image\" style=\"\(ratio)\" role=\"img\" aria-label=\"\(Self.e(attachment.identifier))\"></div>"
        case .audio:
            return "<div class=\"media-placeholder\">♫ Audio<small>\(Self.e(caption))</small></div>"
        case .video:
            return "<div class=\"media-placeholder video\">▶ Video<small>\(Self.e(caption))</small></div>"
        }
    }

    /// The category's buttons, destructive ones in red; or why there are none.
    private func actions() -> String {
        let id = result.content.categoryIdentifier
        guard !id.isEmpty else { return "" }
        guard let category else {
            return "<p class=\"note\">Category <code>\(Self.e(id))</code> is neither registered nor declared: iOS shows no buttons.</p>"
        }
        guard !category.actions.isEmpty else { return "" }
        let rows = category.actions.map { action -> String in
            var classes = ["action"]
            if action.options.contains(.destructive) { classes.append("destructive") }
            var extra = ""
            if let input = action.textInput {
                let hint = input.placeholder.isEmpty ? input.buttonTitle : input.placeholder
                extra = "<small>text input · \(Self.e(hint))</small>"
            }
            if action.options.contains(.authenticationRequired) { extra += "<small>needs unlock</small>" }
            switch action.icon {
            case .system(let name)?: extra += "<small>icon: SF Symbol \(Self.e(name))</small>"
            case .template(let name)?: extra += "<small>icon: image \(Self.e(name))</small>"
            case nil: break
            }
            return "<div class=\"\(classes.joined(separator: " "))\" data-identifier=\"\(Self.e(action.identifier))\">\(Self.e(action.title))\(extra)</div>"
        }
        return "<div class=\"actions\" aria-label=\"actions of \(Self.e(id))\">\n\(rows.joined(separator: "\n"))\n</div>"
    }
}
