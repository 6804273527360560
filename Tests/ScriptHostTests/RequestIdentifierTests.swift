import Foundation
import Testing
@testable import ScriptHost

/// Identifiers made for requests without an `apns-id`: UUID strings, all different.
@Suite struct RequestIdentifierTests {
    @Test func areDistinctVersion4UUIDStrings() {
        let made = (0..<10_000).map { _ in RequestIdentifier.make() }
        #expect(Set(made).count == made.count)
        for identifier in made.prefix(100) {
            let uuid = UUID(uuidString: identifier)
            #expect(uuid?.uuidString == identifier)
            let characters = Array(identifier)
            #expect(characters[14] == "4")
            #expect("89AB".contains(characters[19]))
        }
    }
}
