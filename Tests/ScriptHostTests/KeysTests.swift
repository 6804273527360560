import Foundation
import Testing
@testable import ScriptHost

/// `keys.get(name)`: the binary keys the host holds (`--key NAME=BASE64`, a fixture's `keys`).
@Suite struct KeysTests {
    static let binary: [UInt8] = [0x00, 0xff, 0x80, 0x0a, 0x00, 0x7f, 0xc3]

    @Test func presentKeysComeBackByteForByte() async throws {
        let host = ScriptHost(configuration: HostConfiguration(keys: ["inbox": Self.binary, "empty": []]))
        #expect(try await values("return keys.get('inbox'), #keys.get('inbox'), keys.get('empty')", host: host)
                == [.bytes(Self.binary), .integer(7), .text("")])
    }

    @Test func absentKeysAreNil() async throws {
        let host = ScriptHost(configuration: HostConfiguration(keys: ["inbox": Self.binary]))
        #expect(try await values("return keys.get('outbox'), keys.get('INBOX'), keys.get('')", host: host) == [.nil, .nil, .nil])
    }

    @Test func aRequestsKeysAddToTheHostsAndWin() async throws {
        let host = ScriptHost(configuration: HostConfiguration(keys: ["inbox": [1], "shared": [2]]))
        var request = try request(app: "com.example.news")
        request.keys = ["inbox": [9, 9], "own": [3]]
        #expect(try await values("return keys.get('inbox'), keys.get('shared'), keys.get('own')", host: host, request: request)
                == [.bytes([9, 9]), .bytes([2]), .bytes([3])])
        // The next request without them sees the host's keys only.
        #expect(try await values("return keys.get('inbox'), keys.get('own')", host: host) == [.bytes([1]), .nil])
    }

    @Test func keysAreReadableInBestAttempt() async throws {
        let host = ScriptHost(configuration: HostConfiguration(keys: ["inbox": Self.binary]))
        let result = try await deliver("""
            function didReceive(request, content) error("boom") end
            function bestAttempt(content, reason) content.body = tostring(#keys.get("inbox")) end
            """, host: host)
        #expect(result.content.body == "7")
    }

    @Test func aNameThatIsNotAStringRaises() async throws {
        #expect(try await raised("return keys.get(1)")?.contains("bad argument #1 to 'get' (string expected, got number)") == true)
        #expect(try await raised("return keys.get()")?.contains("bad argument #1 to 'get' (string expected, got no value)") == true)
    }
}
