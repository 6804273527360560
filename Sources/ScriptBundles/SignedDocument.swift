import NotificationModel

/// What a container's signed bytes say: a bundle's manifest or a revocation.
public enum SignedDocument: Sendable, Hashable {
    /// A bundle's manifest.
    case manifest(BundleManifest)
    /// A revocation.
    case revocation(Revocation)

    /// The signed bytes of a manifest: its tag line and canonical JSON.
    public static func signedBytes(_ manifest: BundleManifest) -> [UInt8] {
        // A manifest's JSON holds integers and strings only: it always has a canonical form.
        BundleContainer.manifestTag + ((try? CanonicalJSON.bytes(manifest.jsonValue)) ?? [])
    }

    /// The signed bytes of a revocation: its tag line and canonical JSON.
    public static func signedBytes(_ revocation: Revocation) -> [UInt8] {
        BundleContainer.revocationTag + ((try? CanonicalJSON.bytes(revocation.jsonValue)) ?? [])
    }

    /// Reads signed bytes: the tag line says which document follows; the JSON must be canonical
    /// and follow the document's rules.
    public init(signed: some Collection<UInt8>) throws(BundleRefusal) {
        let bytes = Array(signed)
        if bytes.starts(with: BundleContainer.manifestTag) {
            let json = try Self.json(bytes.dropFirst(BundleContainer.manifestTag.count))
            self = .manifest(try BundleManifest(json: json))
        } else if bytes.starts(with: BundleContainer.revocationTag) {
            let json = try Self.json(bytes.dropFirst(BundleContainer.revocationTag.count))
            self = .revocation(try Revocation(json: json))
        } else {
            let line = bytes.prefix { $0 != UInt8(ascii: "\n") }.prefix(40)
            throw malformed("the signed document starts with '\(String(decoding: line, as: UTF8.self))', not a format tag this host reads (pushscript-bundle-manifest-1 or pushscript-bundle-revocation-1)")
        }
    }

    /// The key id the document names.
    public var keyID: KeyID {
        switch self {
        case .manifest(let m): m.keyID
        case .revocation(let r): r.keyID
        }
    }

    /// The app it is for.
    public var app: String {
        switch self {
        case .manifest(let m): m.app
        case .revocation(let r): r.app
        }
    }

    /// The document as JSON (what `bundle inspect` prints): a revocation's says
    /// `"revocation": true` besides its fields.
    public var jsonValue: JSONValue {
        switch self {
        case .manifest(let m):
            return m.jsonValue
        case .revocation(let r):
            guard case .object(var members) = r.jsonValue else { return r.jsonValue }
            members["revocation"] = .bool(true)
            return .object(members)
        }
    }

    private static func json(_ bytes: ArraySlice<UInt8>) throws(BundleRefusal) -> JSONValue {
        do { return try CanonicalJSON.read(Array(bytes)) } catch {
            throw malformed("the signed JSON is \(error.message)")
        }
    }
}
