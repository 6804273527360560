import Foundation
import TestSupport
import Testing

/// `pushscript run` with bad input: one line on standard error, nothing on standard output,
/// exit status 2.
@Suite(.serialized) struct RunErrorTests {
    /// Runs and checks the usage-error shape; returns the one line on standard error.
    private func usageError(_ arguments: [String]) async throws -> String {
        let out = try await CLI.run(arguments)
        #expect(out.status == 2, "\(arguments): \(out)")
        #expect(out.stdout == "", "\(arguments)")
        #expect(out.errorLines.count == 1, "\(arguments): \(out)")
        return out.errorLines.first ?? ""
    }

    @Test func unknownOptionsAndMissingValues() async throws {
        let inputs = try scriptAndPayload("function didReceive() end")
        let (script, payload) = (inputs.script, inputs.payload)
        #expect(try await usageError(["run", script, payload, "--bogus"])
            == "pushscript run: unknown option '--bogus'; run 'pushscript run --help' for the options")
        #expect(try await usageError(["run", script, payload, "--app"])
            == "pushscript run: option '--app' needs a value; run 'pushscript run --help'")
        #expect(try await usageError(["run", script, payload, "--cpu-ms", "soon"])
            == "pushscript run: --cpu-ms takes a whole number of milliseconds from 1 to 3600000 (an hour), not 'soon'")
        #expect(try await usageError(["run", script, payload, "--key", "novalue"])
            == "pushscript run: --key takes NAME=BASE64, not 'novalue'")
        #expect(try await usageError(["run", script])
            == "pushscript run: expected SCRIPT and PAYLOAD, got 1 argument; run 'pushscript run --help'")
        #expect(try await usageError(["frobnicate"]) == "pushscript: unknown command 'frobnicate'; run 'pushscript --help' for the commands")
        #expect(try await usageError([]) == "pushscript: no command given; run 'pushscript --help' for the commands")
    }

    @Test func aMisspeltOptionOrCommandNamesTheNearestOne() async throws {
        let inputs = try scriptAndPayload("function didReceive() end")
        let (script, payload) = (inputs.script, inputs.payload)
        #expect(try await usageError(["run", script, payload, "--cpu", "50"])
            == "pushscript run: unknown option '--cpu'; did you mean '--cpu-ms'? run 'pushscript run --help' for the options")
        #expect(try await usageError(["run", script, payload, "--alow-post=x"])
            == "pushscript run: unknown option '--alow-post'; did you mean '--allow-post'? run 'pushscript run --help' for the options")
        #expect(try await usageError(["test", ".", "--verbos"])
            == "pushscript test: unknown option '--verbos'; did you mean '--verbose'? run 'pushscript test --help' for the options")
        #expect(try await usageError(["tset", "."]) == "pushscript: unknown command 'tset'; did you mean 'test'? run 'pushscript --help' for the commands")
        #expect(try await usageError(["bundle", "kegen"])
            == "pushscript bundle: unknown subcommand 'kegen'; did you mean 'keygen'? run 'pushscript bundle --help' for the subcommands")
    }

    @Test func absurdLimitsAreRefusedInsteadOfWrapping() async throws {
        // --time-ms of Int64.max wrapped the deadline into the past; --memory-mb of 2^44 MiB
        // wrapped to 0 bytes, and a larger one turned the memory limit off.
        let inputs = try scriptAndPayload("function didReceive() end")
        let (script, payload) = (inputs.script, inputs.payload)
        #expect(try await usageError(["run", script, payload, "--time-ms", "9223372036854775807"])
            == "pushscript run: --time-ms takes a whole number of milliseconds from 1 to 86400000 (a day), not '9223372036854775807'")
        #expect(try await usageError(["run", script, payload, "--memory-mb", "17592186044416"])
            == "pushscript run: --memory-mb takes a whole number of MiB from 1 to 65536 (64 GiB), not '17592186044416'")
        #expect(try await usageError(["run", script, payload, "--memory-mb", "36028797018963968000"])
            == "pushscript run: --memory-mb takes a whole number of MiB from 1 to 65536 (64 GiB), not '36028797018963968000'")
        #expect(try await usageError(["run", script, payload, "--cpu-ms", "0"])
            == "pushscript run: --cpu-ms takes a whole number of milliseconds from 1 to 3600000 (an hour), not '0'")
        // the largest values taken still deliver
        let out = try await CLI.run(["run", script, payload, "--time-ms", "86400000", "--memory-mb", "65536", "--cpu-ms", "3600000"])
        #expect(out.status == 0, "\(out)")
    }

    @Test func missingAndUnreadableFiles() async throws {
        let scratch = try scriptAndPayload("function didReceive() end")
        let (script, payload) = (scratch.script, scratch.payload)
        let nowhere = scratch.path("nowhere.json")
        #expect(try await usageError(["run", script, nowhere]) == "pushscript run: cannot read payload \(nowhere); check the path")
        #expect(try await usageError(["run", script, scratch.url.path]) == "pushscript run: cannot read payload \(scratch.url.path); check the path")
        let noScript = scratch.path("none.lua")
        #expect(try await usageError(["run", noScript, payload]) == "pushscript run: cannot read script \(noScript): no such file; check the path")
        let media = scratch.path("missing.jpg")
        #expect(try await usageError(["run", script, payload, "--media", "https://a.example/x.jpg=\(media)"])
            == "pushscript run: --media https://a.example/x.jpg: cannot read \(media); give URL=FILE with a readable file")
    }

    @Test func aScriptGivenAsThePayloadSaysWhichComesFirst() async throws {
        let scratch = try TemporaryFolder()
        let script = try scratch.write("rules.lua", "function didReceive() end")
        let payload = try scratch.write("payload.json", #"{"aps": {"alert": "hi", "mutable-content": 1}}"#)
        #expect(try await usageError(["run", payload, script])
            == "pushscript run: \(script) is a script, not a payload; give the script first: pushscript run SCRIPT PAYLOAD")
    }

    @Test func invalidPayloadsSayWhatIsWrong() async throws {
        let scratch = try TemporaryFolder()
        let script = try scratch.write("rules.lua", "function didReceive() end")
        let big = #"{"aps": {"alert": "hi", "mutable-content": 1}, "blob": "\#(String(repeating: "x", count: 4100))"}"#
        // Counted as sent: compact JSON.
        let size = #"{"aps":{"alert":"hi","mutable-content":1},"blob":""}"#.utf8.count + 4100
        let cases: [(String, String, String)] = [
            ("big.json", big, "payload too large: \(size) bytes, APNs allows 4096"),
            ("text.json", "hello", "payload is not valid JSON: "),
            ("list.json", "[1, 2]", "payload is not a JSON object: it is an array"),
            ("noaps.json", #"{"alert": "hi"}"#, "aps is missing; a payload needs an aps dictionary"),
            ("badge.json", #"{"aps": {"badge": "1"}}"#, "aps.badge must be an integer >= 0"),
        ]
        for (name, text, message) in cases {
            let path = try scratch.write(name, text)
            let line = try await usageError(["run", script, path])
            #expect(line.hasPrefix("pushscript run: \(path) is not a valid payload: \(message)"), "\(line)")
        }
    }
}
