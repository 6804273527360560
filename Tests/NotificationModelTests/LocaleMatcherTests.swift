import Testing
import NotificationModel

@Suite struct LocaleMatcherTests {
    @Test func exactMatchWins() {
        #expect(LocaleMatcher.best(available: ["de", "de-DE", "de-AT"], preferred: ["de-AT"]) == "de-AT")
    }

    @Test func bareLanguageComesNext() {
        #expect(LocaleMatcher.best(available: ["de-DE", "de", "en"], preferred: ["de-AT"]) == "de")
    }

    @Test func anotherRegionOfTheLanguageComesLast() {
        #expect(LocaleMatcher.best(available: ["en", "de-DE"], preferred: ["de-AT"]) == "de-DE")
        // The first such region in the order available lists them.
        #expect(LocaleMatcher.best(available: ["fr", "de-CH", "de-DE"], preferred: ["de-AT"]) == "de-CH")
    }

    @Test func bareLanguagePreferredTakesARegion() {
        #expect(LocaleMatcher.best(available: ["pt-BR", "pt-PT"], preferred: ["pt"]) == "pt-BR")
    }

    @Test func preferredOrderBeatsMatchQuality() {
        // A regional match for the first language beats an exact match for the second.
        #expect(LocaleMatcher.best(available: ["en", "de-DE"], preferred: ["de-AT", "en"]) == "de-DE")
        #expect(LocaleMatcher.best(available: ["en", "fr"], preferred: ["de-AT", "fr-FR", "en"]) == "fr")
    }

    @Test func repeatedTagsAnswerWithTheFirstAsGiven() {
        #expect(LocaleMatcher.best(available: ["de_DE", "de-DE", "DE-de"], preferred: ["de-de"]) == "de_DE")
        #expect(LocaleMatcher.best(available: ["de-CH", "DE", "de"], preferred: ["de-AT"]) == "DE")
        // a language's first tag wins among its regions, even after a bare tag of another
        #expect(LocaleMatcher.best(available: ["en", "de-LU", "de-CH"], preferred: ["fr", "de-AT"]) == "de-LU")
    }

    @Test func noMatchIsNil() {
        #expect(LocaleMatcher.best(available: ["en", "fr"], preferred: ["de-AT", "ja"]) == nil)
        #expect(LocaleMatcher.best(available: [], preferred: ["en"]) == nil)
        #expect(LocaleMatcher.best(available: ["en"], preferred: []) == nil)
    }

    @Test func caseAndSeparatorDoNotMatterAndTheGivenSpellingIsReturned() {
        #expect(LocaleMatcher.best(available: ["de_AT", "de"], preferred: ["DE-at"]) == "de_AT")
        #expect(LocaleMatcher.best(available: ["EN"], preferred: ["en_GB"]) == "EN")
        #expect(LocaleMatcher.best(available: ["zh_hans"], preferred: ["zh-Hans-CN"]) == "zh_hans")
        #expect(LocaleMatcher.normalized("pt_BR") == "pt-br")
    }

    @Test func aLanguageIsNotAPrefixOfAnother() {
        // "en" must not match "eng" or "ena-XX".
        #expect(LocaleMatcher.best(available: ["eng", "ena-XX"], preferred: ["en"]) == nil)
    }

    @Test func requestExample() {
        #expect(LocaleMatcher.best(available: ["en", "de", "fr"], preferred: ["de-DE", "en"]) == "de")
        #expect(LocaleMatcher.best(available: ["en-US", "fr-FR"], preferred: ["fr-CA", "en"]) == "fr-FR")
    }
}
