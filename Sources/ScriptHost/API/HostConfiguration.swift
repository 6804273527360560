import Foundation
import NotificationModel

/// How a ``ScriptHost`` runs scripts: limits, device settings, and what it lends scripts.
public struct HostConfiguration: Sendable {
    /// Limits for requests that do not bring their own.
    public var limits: ScriptLimits
    /// The device's preferred languages (`request.locales`), most preferred first.
    public var locales: [String]
    /// Localized strings for the device's language (`--strings`), used to resolve `loc-key`s.
    public var strings: [String: String]
    /// Categories every app declares (`--categories`); never dropped.
    public var categories: [NotificationCategory]
    /// Binary keys for `keys.get` (`--key NAME=BASE64`).
    public var keys: [String: [UInt8]]
    /// Hosts that may be reached over plain `http` (`--allow-http`).
    public var allowHTTPHosts: Set<String>
    /// Hosts `http.post` may post to (`--allow-post`); none by default.
    public var allowPostHosts: Set<String>
    /// Folders `require "name"` searches for `name.lua` after the script's own folder
    /// (`--lib DIR`), in order.
    public var libraryDirectories: [URL]
    /// Where `store` and registered categories persist (`--state`); in memory when nil.
    public var stateDirectory: URL?
    /// Where downloads and attachments go, one folder per request.
    ///
    /// When a request is delivered the host removes the downloads its script did not attach;
    /// the attached files stay, and from then on they are the caller's to remove
    /// (``DeliveryResult/attachmentFiles``, ``DeliveryResult/removeAttachmentFiles()``).
    public var attachmentDirectory: URL
    /// When true, downloads and posts fail with `network` instead of going to the network,
    /// unless answers given in its place cover them (fixtures, `--media`, `--offline`).
    public var offline: Bool
    /// The media directory (`--media-dir`): files the app ships or keeps for its scripts,
    /// which `content:attach{path = …}` may attach (a relative path is taken inside it), as
    /// an extension reads files of its bundle or App Group. Nil for none: then `{path = …}`
    /// names only files of this request's downloads and of answers given in place of the network.
    public var mediaDirectory: URL?
    /// The cryptography of `crypto.*` (AES-GCM and ChaCha20-Poly1305 decryption, SHA-256,
    /// HMAC-SHA256): the platform's own (OpenSSL's libcrypto on Linux, CryptoKit on Apple
    /// platforms) unless an app supplies another. A result's `script.sha256` always uses the
    /// platform's.
    public var crypto: any ScriptCrypto = PlatformCrypto.default

    /// A configuration with SPEC's defaults.
    public init(
        limits: ScriptLimits = .default, locales: [String] = ["en"], strings: [String: String] = [:],
        categories: [NotificationCategory] = [], keys: [String: [UInt8]] = [:], allowHTTPHosts: Set<String> = [],
        allowPostHosts: Set<String> = [],
        libraryDirectories: [URL] = [], stateDirectory: URL? = nil,
        attachmentDirectory: URL = HostConfiguration.defaultAttachmentDirectory, offline: Bool = false,
        mediaDirectory: URL? = nil
    ) {
        self.limits = limits
        self.locales = locales.isEmpty ? ["en"] : locales
        self.strings = strings
        self.categories = categories
        self.keys = keys
        self.allowHTTPHosts = allowHTTPHosts
        self.allowPostHosts = allowPostHosts
        self.libraryDirectories = libraryDirectories
        self.stateDirectory = stateDirectory
        self.attachmentDirectory = attachmentDirectory
        self.offline = offline
        self.mediaDirectory = mediaDirectory
    }

    /// `pushscript-attachments` in the temporary directory.
    public static var defaultAttachmentDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-attachments", isDirectory: true)
    }
}
