@testable import ScriptBundles
import ScriptHost
import Testing

/// Probation's margin at its edges.
@Suite struct ProbationRuleTests {
    func counts(_ deliveries: Int, failures: Int, kind: DeliveryResult.ReasonKind = .error) -> DeliveryCounts {
        var c = DeliveryCounts()
        for i in 0..<deliveries { c.add(i < failures ? DeliveryResult.Reason(kind: kind, message: "m\(i)") : nil) }
        return c
    }

    @Test func aCandidateIsRolledBackOnlyPastTenPointsAboveThePrevious() {
        let clean = counts(50, failures: 0)
        // A probation of 20 against 0 %: 2 failures (10 %) stay, 3 (15 %) go.
        #expect(!ProbationRule.exceeds(failures: 2, probation: 20, previous: clean))
        #expect(ProbationRule.exceeds(failures: 3, probation: 20, previous: clean))
        // Against 20 % (10 of 50): 6 of 20 (30 %) is exactly 10 points above and stays; 7 goes.
        let some = counts(50, failures: 10)
        #expect(!ProbationRule.exceeds(failures: 6, probation: 20, previous: some))
        #expect(ProbationRule.exceeds(failures: 7, probation: 20, previous: some))
        // No previous deliveries count as 0 %.
        #expect(!ProbationRule.exceeds(failures: 1, probation: 10, previous: DeliveryCounts()))
        #expect(ProbationRule.exceeds(failures: 1, probation: 9, previous: DeliveryCounts()))
        // A previous version past 90 % cannot be beaten by the margin.
        #expect(!ProbationRule.exceeds(failures: 20, probation: 20, previous: counts(10, failures: 10)))
        #expect(!ProbationRule.exceeds(failures: 0, probation: 20, previous: clean))
        #expect(!ProbationRule.exceeds(failures: 5, probation: 0, previous: clean))
    }

    @Test func theVerdictComesAsSoonAsItIsCertain() {
        let previous = counts(10, failures: 0)
        #expect(ProbationRule.verdict(candidate: counts(1, failures: 0), probation: 5, previous: previous) == .watching)
        #expect(ProbationRule.verdict(candidate: counts(1, failures: 1), probation: 5, previous: previous) == .rollBack)
        #expect(ProbationRule.verdict(candidate: counts(5, failures: 0), probation: 5, previous: previous) == .promote)
        #expect(ProbationRule.verdict(candidate: counts(20, failures: 2), probation: 20, previous: previous) == .promote)
        #expect(ProbationRule.verdict(candidate: counts(3, failures: 3), probation: 20, previous: previous) == .rollBack)
    }

    @Test func onlyTheScriptsOwnFailuresCount() {
        var c = DeliveryCounts()
        for kind in [DeliveryResult.ReasonKind.time, .noScript] { c.add(DeliveryResult.Reason(kind: kind, message: "x")) }
        #expect(c.failures == 0 && c.firstFailure == nil && c.fallbacks == ["time": 1, "no-script": 1])
        for kind in ProbationRule.failureKinds { c.add(DeliveryResult.Reason(kind: kind, message: "\(kind)\nsecond line")) }
        #expect(c.failures == 4)
        #expect(c.firstFailure == FailureNote(kind: "error", message: "error second line"))
        #expect(c.deliveries == 6 && c.completed == 0)
    }

    @Test func largeCountsKeepTheirRate() {
        let previous = counts(0, failures: 0)
        var big = previous
        big.deliveries = 50_000_000
        big.fallbacks = ["error": 5_000_000]
        #expect(!ProbationRule.exceeds(failures: 4, probation: 20, previous: big))
        #expect(ProbationRule.exceeds(failures: 5, probation: 20, previous: big))
    }
}
