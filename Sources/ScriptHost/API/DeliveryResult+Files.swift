import Foundation

extension DeliveryResult {
    /// The files of the delivered attachments (`content.attachments`' `file://` URLs), in the
    /// order attached.
    ///
    /// **Who owns them:** the caller, from the moment ``ScriptHost/deliver(_:script:)`` returns.
    /// The host removes the downloads a script did not attach when it delivers, and never
    /// touches a delivered file after that: keep the files as long as the notification needs
    /// them (on iOS the system moves them when the content handler is called) and remove them
    /// afterwards, e.g. with ``removeAttachmentFiles()``.
    public var attachmentFiles: [URL] {
        content.attachments.compactMap { attachment in
            guard let url = URL(string: attachment.url), url.isFileURL else { return nil }
            return url.standardizedFileURL
        }
    }

    /// The bytes the delivered attachment files hold, as the attachments list them.
    public var attachmentBytes: Int { content.attachments.reduce(0) { $0 + $1.size } }

    /// Removes the delivered attachment files, and each file's folder when that leaves it
    /// empty (the host gives each request a folder of its own).
    public func removeAttachmentFiles() {
        let fm = FileManager.default
        for file in attachmentFiles {
            try? fm.removeItem(at: file)
            let folder = file.deletingLastPathComponent()
            if (try? fm.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? false {
                try? fm.removeItem(at: folder)
            }
        }
    }
}
