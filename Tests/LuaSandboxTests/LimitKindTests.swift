import CLuaSandbox
import Testing
@testable import LuaSandbox

/// The limit kinds are the engine's (`PSS_LIMITS` in `pss_types.h`): each maps to one trip and
/// back, and its name is the one the engine gives.
@Suite struct LimitKindTests {
    @Test func everyKindIsOneTripOfTheEngine() {
        #expect(LimitKind.allCases.count == Int(PSS_TRIP_COUNT) - 1)
        #expect(Set(LimitKind.allCases.map(\.trip.rawValue)).count == LimitKind.allCases.count)
        for kind in LimitKind.allCases {
            #expect(kind.trip != .PSS_TRIP_NONE)
            #expect(LimitKind(trip: kind.trip) == kind)
        }
        #expect(LimitKind(trip: .PSS_TRIP_NONE) == nil)
    }

    @Test func theNamesAreTheEnginesAndReadBack() {
        #expect(LimitKind.allCases.map(\.rawValue) == ["cpu", "memory", "time"])
        for kind in LimitKind.allCases {
            #expect(kind.rawValue == String(cString: pss_trip_name(kind.trip)))
            #expect(LimitKind(rawValue: kind.rawValue) == kind)
        }
        #expect(LimitKind(rawValue: "none") == nil)
        #expect(String(cString: pss_trip_name(.PSS_TRIP_NONE)) == "none")
    }

    @Test func aRecordedTripIsTheLimitThatTripped() throws {
        for kind in LimitKind.allCases {
            let sandbox = try LuaSandbox()
            #expect(sandbox.trippedLimit == nil)
            sandbox.recordTrip(kind)
            #expect(sandbox.trippedLimit == kind)
            // the first trip stays
            sandbox.recordTrip(kind == .cpu ? .time : .cpu)
            #expect(sandbox.trippedLimit == kind)
        }
    }
}
