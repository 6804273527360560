import LuaSandbox

/// `crypto.decrypt{alg=, key=, nonce=, ciphertext=, tag=, aad=}`, `crypto.sha256(s)` and
/// `crypto.hmacSHA256(key, s)`: for payloads that arrive encrypted. All values are binary
/// strings.
///
/// `decrypt` returns the plaintext, or `nil, err` when the data cannot be decrypted: an unknown
/// `alg`, a missing (nil) field, a key, nonce or tag of a length the algorithm does not take,
/// and `"authentication failed"` for a wrong key or tampered data (never a partial plaintext).
/// A call that is wrong in itself raises an error instead: an argument that is not a table, a
/// field that is not a string, or a field the table should not have.
///
/// The cryptography is the host's ``HostConfiguration/crypto``.
struct CryptoModule: ScriptModule {
    unowned let host: ModuleHost

    func install() {
        let crypto = host.services.configuration.crypto
        host.sandbox.register("decrypt", in: "crypto") { call in
            switch Self.decryptRequest(call[0]) {
            case .failure(let failure): return .error(failure.message)
            case .success(.refused(let message)): return .values([.nil, .text(message)])
            case .success(.ready(let alg, let fields)):
                do throws(AEAD.Failure) {
                    let plaintext = try AEAD.open(
                        alg, key: fields["key"] ?? [], nonce: fields["nonce"] ?? [], ciphertext: fields["ciphertext"] ?? [],
                        tag: fields["tag"] ?? [], aad: fields["aad"] ?? [], using: crypto)
                    return .values([.string(LuaString(bytes: plaintext))])
                } catch {
                    return .values([.nil, .text(error.message)])
                }
            }
        }
        host.sandbox.register("sha256", in: "crypto") { call in
            Arguments.string(call, 0, "sha256").then { s in
                guard let digest = Digest.sha256(s.bytes, using: crypto) else { return .error("crypto.sha256: the digest could not be computed") }
                return .values([.string(LuaString(bytes: digest))])
            }
        }
        host.sandbox.register("hmacSHA256", in: "crypto") { call in
            Arguments.string(call, 0, "hmacSHA256").then { key in
                Arguments.string(call, 1, "hmacSHA256").then { s in
                    guard let mac = Digest.hmacSHA256(key: key.bytes, data: s.bytes, using: crypto) else {
                        return .error("crypto.hmacSHA256: the MAC could not be computed")
                    }
                    return .values([.string(LuaString(bytes: mac))])
                }
            }
        }
    }

    /// What `decrypt`'s table asks for: an algorithm and the fields, or why it is refused.
    enum DecryptRequest {
        case ready(AEAD.Algorithm, [String: [UInt8]])
        case refused(String)
    }

    static let decryptFields = ["alg", "key", "nonce", "ciphertext", "tag", "aad"]

    /// Reads `decrypt`'s argument. A failure is raised as an error; `refused` is `nil, err`.
    static func decryptRequest(_ argument: LuaOutput) -> Result<DecryptRequest, HostFailure> {
        let fieldList = decryptFields.joined(separator: ", ")
        guard case .table(let table) = argument, !(table.isArray && !table.elements.isEmpty) else {
            return .failure(HostFailure("bad argument #1 to 'decrypt' (table {\(decryptFields.map { "\($0)=" }.joined(separator: ", "))} expected, got \(Arguments.describe(argument)))"))
        }
        var fields: [String: [UInt8]] = [:]
        for pair in table.pairs {
            guard let name = pair.key.stringValue, decryptFields.contains(name) else {
                let shown = pair.key.stringValue.map { "'\($0)'" } ?? "of type \(pair.key.typeName)"
                return .failure(HostFailure("crypto.decrypt: unknown field \(shown); the fields are \(fieldList)"))
            }
            guard case .string(let value) = pair.value else {
                return .failure(HostFailure("crypto.decrypt: \(name) must be a string, not a \(pair.value.typeName)"))
            }
            fields[name] = value.bytes
        }
        for name in ["alg", "key", "nonce", "ciphertext", "tag"] where fields[name] == nil {
            return .success(.refused("\(name) is missing"))
        }
        let algName = String(decoding: fields["alg"] ?? [], as: UTF8.self)
        guard let alg = AEAD.Algorithm(rawValue: algName) else {
            return .success(.refused("unknown alg '\(algName)'; alg is one of \(AEAD.Algorithm.names)"))
        }
        return .success(.ready(alg, fields))
    }
}
