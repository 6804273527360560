import Foundation
import TestSupport
import Synchronization
import Testing
@testable import ScriptTesting

/// A fresh folder of fixtures: `rules/app.lua` and `tests/*.fixture.json`.
struct FixtureTree {
    let root: URL

    init() throws {
        root = try TemporaryFolder.make("pushscript-watch")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("rules"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("tests"), withIntermediateDirectories: true)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).standardizedFileURL.path }

    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(relative))
    }

    /// `rules/app.lua` and `rules/other.lua`, each setting one of `titles`, and
    /// `tests/a.fixture.json` and `tests/b.fixture.json` expecting them, named `names`.
    func writeTwoScripts(titles: (String, String), names: (String, String)) throws {
        try write("rules/app.lua", Self.script(title: titles.0))
        try write("rules/other.lua", Self.script(title: titles.1))
        try write("tests/a.fixture.json", Self.fixture(name: names.0, title: titles.0))
        try write("tests/b.fixture.json", Self.fixture(name: names.1, script: "../rules/other.lua", title: titles.1))
    }

    /// Writes a temporary file and renames it over `relative`, as many editors save.
    func renameSave(_ relative: String, _ text: String) throws {
        let temporary = root.appendingPathComponent(relative + ".swp~")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, root.appendingPathComponent(relative).path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// A script setting the title.
    static func script(title: String) -> String {
        "function didReceive(request, content)\n  content.title = \"\(title)\"\nend\n"
    }

    /// A fixture expecting that title from `script`.
    static func fixture(name: String, script: String = "../rules/app.lua", title: String, extra: String = "") -> String {
        """
        {"name": "\(name)", "script": "\(script)", \(extra)
         "payload": {"aps": {"alert": "x", "mutable-content": 1}},
         "expect": {"outcome": "completed", "content": {"title": "\(title)"}}}
        """
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// Lines collected from a running watch loop.
final class LineCollector: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }

    /// Waits until `count` summary lines have come (or `timeout` passes); returns all lines.
    func waitForSummaries(_ count: Int, timeout: Duration = .seconds(20)) async -> [String] {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            let lines = all
            if lines.filter({ $0.hasSuffix(" failed") && $0.contains(" passed, ") }).count >= count { return lines }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return all
    }
}

/// The watchers the watch loop runs on here: the platform's and the portable one.
enum WatcherBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    #if os(Linux)
    case inotify
    #endif
    case polling

    var testDescription: String { rawValue }

    /// A watcher whose bursts end after 50 ms without events.
    func make() throws -> any DirectoryWatching {
        switch self {
        #if os(Linux)
        case .inotify: try InotifyDirectoryWatcher(debounce: .milliseconds(50))
        #endif
        case .polling: PollingDirectoryWatcher(interval: .milliseconds(20), debounce: .milliseconds(50))
        }
    }
}

@Suite("Fixture watcher")
struct FixtureWatcherTests {
    @Test func planKnowsEachFixturesFiles() throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        try tree.write("rules/app.lua", FixtureTree.script(title: "A"))
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("media"), withIntermediateDirectories: true)
        try tree.write("media/a.png", "png")
        try tree.write("tests/p.json", #"{"aps": {"alert": "x", "mutable-content": 1}}"#)
        try tree.write("tests/a.fixture.json", """
            {"name": "a", "script": "../rules/app.lua", "payload": "p.json",
             "media": {"https://x/a.png": "../media/a.png", "https://x/b": {"status": 404}},
             "expect": {"outcome": "completed"}}
            """)
        try tree.write("tests/broken.fixture.json", "{ not json")
        let plan = WatchPlan.discover([tree.path("tests")])
        #expect(plan.dependencies[tree.path("tests/a.fixture.json")] == [
            tree.path("tests/a.fixture.json"), tree.path("rules/app.lua"), tree.path("tests/p.json"), tree.path("media/a.png"),
        ])
        #expect(plan.dependencies[tree.path("tests/broken.fixture.json")] == [tree.path("tests/broken.fixture.json")])
        #expect(plan.directories == [tree.path("tests"), tree.path("rules"), tree.path("media")])
    }

    @Test func theModulesAScriptRequiresAreItsFixturesFilesToo() throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        try tree.write("rules/app.lua", "local util = require \"lib.util\"\n" + FixtureTree.script(title: "A"))
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("rules/lib"), withIntermediateDirectories: true)
        try tree.write("rules/lib/util.lua", "local text = require('text') return {}")
        try tree.write("rules/text.lua", "return {}")
        try tree.write("tests/a.fixture.json", FixtureTree.fixture(name: "a", title: "A"))
        let plan = WatchPlan.discover([tree.path("tests")])
        #expect(plan.dependencies[tree.path("tests/a.fixture.json")] == [
            tree.path("tests/a.fixture.json"), tree.path("rules/app.lua"), tree.path("rules/lib/util.lua"), tree.path("rules/text.lua"),
        ])
        #expect(plan.affected(by: FileChanges(paths: [tree.path("rules/text.lua")]), since: plan) == [tree.path("tests/a.fixture.json")])
        #expect(plan.directories.contains(tree.path("rules/lib")))
    }

    @Test func categoriesAndStringsFilesAreDependencies() throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        try tree.write("rules/app.lua", FixtureTree.script(title: "A"))
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("common"), withIntermediateDirectories: true)
        try tree.write("common/categories.json", #"[{"identifier": "news"}]"#)
        try tree.write("common/strings.json", #"{"K": "v"}"#)
        try tree.write("tests/a.fixture.json", """
            {"script": "../rules/app.lua", "payload": {"aps": {}}, "categories": "../common/categories.json",
             "strings": "../common/strings.json", "expect": {}}
            """)
        let plan = WatchPlan.discover([tree.path("tests")])
        #expect(plan.dependencies[tree.path("tests/a.fixture.json")] == [
            tree.path("tests/a.fixture.json"), tree.path("rules/app.lua"), tree.path("common/categories.json"), tree.path("common/strings.json"),
        ])
        #expect(plan.directories.contains(tree.path("common")))
    }

    @Test func affectedFixturesAreThoseUsingAChangedFileAndNewOnes() throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        try tree.writeTwoScripts(titles: ("A", "B"), names: ("a", "b"))
        let before = WatchPlan.discover([tree.path("tests")])
        try tree.write("tests/c.fixture.json", FixtureTree.fixture(name: "c", title: "A"))
        let after = WatchPlan.discover([tree.path("tests")])

        let scriptChange = FileChanges(paths: [tree.path("rules/app.lua")])
        #expect(before.affected(by: scriptChange, since: before) == [tree.path("tests/a.fixture.json")])
        #expect(after.affected(by: scriptChange, since: before) == [tree.path("tests/a.fixture.json"), tree.path("tests/c.fixture.json")])
        #expect(after.affected(by: FileChanges(paths: [tree.path("tests/.a.swp")]), since: after).isEmpty)
        #expect(after.affected(by: FileChanges(overflowed: true), since: after) == after.fixtures)
    }

    @Test(arguments: WatcherBackend.allCases) func aWatcherSeesWritesAndRenameSavesOnceABurstIsQuiet(_ backend: WatcherBackend) async throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        try tree.write("rules/app.lua", "-- first")
        let watcher = try backend.make()
        defer { watcher.stop() }
        watcher.watch([tree.path("rules")])
        var changes = watcher.changes.makeAsyncIterator()

        for i in 0..<5 { try tree.write("rules/app.lua", "-- write \(i)") }
        let burst = await changes.next()
        #expect(burst?.paths == [tree.path("rules/app.lua")])

        try tree.renameSave("rules/app.lua", "-- renamed over")
        let renamed = await changes.next()
        #expect(renamed?.paths.contains(tree.path("rules/app.lua")) == true)
        // Polling sees the temporary file only when a listing falls between its write and
        // the rename.
        if backend != .polling { #expect(renamed?.paths.contains(tree.path("rules/app.lua.swp~")) == true) }

        try FileManager.default.removeItem(atPath: tree.path("rules/app.lua"))
        let removed = await changes.next()
        #expect(removed?.paths.contains(tree.path("rules/app.lua")) == true)
    }

    @Test(arguments: WatcherBackend.allCases) func stoppingEndsTheChanges(_ backend: WatcherBackend) async throws {
        let watcher = try backend.make()
        watcher.stop()
        var changes = watcher.changes.makeAsyncIterator()
        #expect(await changes.next() == nil)
    }

    @Test(arguments: WatcherBackend.allCases) func loopRerunsOnEditRenameSaveNewFixtureAndBrokenScript(_ backend: WatcherBackend) async throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        try tree.writeTwoScripts(titles: ("Hello", "Other"), names: ("greets", "other"))
        let watcher = try backend.make()
        let loop = FixtureWatcher(paths: [tree.path("tests")], runner: FixtureRunner(), watcher: watcher)
        let lines = LineCollector()
        let flushes = Atomic<Int>(0)
        let task = Task { await loop.run(output: { lines.append($0) }, flush: { flushes.add(1, ordering: .relaxed) }) }

        var seen = await lines.waitForSummaries(1)
        #expect(seen == ["PASS greets", "PASS other", "2 passed, 0 failed"])

        try tree.write("rules/app.lua", FixtureTree.script(title: "Bye"))
        seen = await lines.waitForSummaries(2)
        #expect(Array(seen.dropFirst(3)) == [
            "changed: \(FixtureWatcher.describe([tree.path("rules/app.lua")]))",
            "FAIL greets\n  in \(tree.path("tests/a.fixture.json"))\n  content.title: expected \"Hello\", actual \"Bye\"",
            "1 passed, 1 failed",
        ])

        try tree.renameSave("rules/app.lua", FixtureTree.script(title: "Hello"))
        seen = await lines.waitForSummaries(3)
        #expect(Array(seen.suffix(2)) == ["PASS greets", "2 passed, 0 failed"])

        try tree.write("rules/app.lua", "function didReceive(r, c) c.title = = 1 end")
        seen = await lines.waitForSummaries(4)
        #expect(seen.last == "1 passed, 1 failed")
        #expect(seen.contains { $0.contains("outcome: expected \"completed\", actual \"fallback\"") })
        // The reason comes first, with the script's path and line.
        let failure = seen.last { $0.hasPrefix("FAIL greets") }?.split(separator: "\n").map(String.init) ?? []
        #expect(failure.count >= 4, "\(failure)")
        #expect(failure.dropFirst(2).first?.hasPrefix("  reason: load: ") == true, "\(failure)")
        #expect(failure.dropFirst(2).first?.contains("\(tree.path("rules/app.lua")):1: ") == true, "\(failure)")

        try tree.write("tests/c.fixture.json", FixtureTree.fixture(name: "newcomer", script: "../rules/other.lua", title: "Other"))
        seen = await lines.waitForSummaries(5)
        #expect(Array(seen.suffix(2)) == ["PASS newcomer", "2 passed, 1 failed"])

        let nested = tree.root.appendingPathComponent("tests/nested", isDirectory: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try tree.write("tests/nested/d.fixture.json", FixtureTree.fixture(name: "nested", script: "../../rules/other.lua", title: "Other"))
        seen = await lines.waitForSummaries(6)
        #expect(Array(seen.suffix(2)) == ["PASS nested", "3 passed, 1 failed"])

        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("tests/b.fixture.json"))
        seen = await lines.waitForSummaries(7)
        #expect(Array(seen.suffix(2)) == ["removed \(tree.path("tests/b.fixture.json"))", "2 passed, 1 failed"])

        watcher.stop()
        await task.value
        #expect(flushes.load(ordering: .relaxed) == 7)
    }
}

/// The polling watcher's listings, compared directly.
@Suite("Polling directory watcher")
struct PollingDirectoryWatcherTests {
    @Test func aRewriteOfTheSameSizeWithinOneClockTickIsSeen() throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        let directory = tree.path("rules")
        // Both writes get the same modification time, as within one tick of a coarse clock.
        let tick = Date()
        try tree.write("rules/app.lua", "-- aaaa")
        try FileManager.default.setAttributes([.modificationDate: tick], ofItemAtPath: tree.path("rules/app.lua"))
        let first = try #require(PollingDirectoryWatcher.list(directory, previous: nil))
        // Written again in place: same size, same inode.
        let stamp = try #require(first["app.lua"])
        let handle = try #require(FileHandle(forWritingAtPath: tree.path("rules/app.lua")))
        try handle.write(contentsOf: Data("-- bbbb".utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: tick], ofItemAtPath: tree.path("rules/app.lua"))
        #expect(PollingDirectoryWatcher.list(directory, previous: nil)?["app.lua"]?.withoutHash == stamp.withoutHash)
        let second = try #require(PollingDirectoryWatcher.relist(directory, previous: first))
        #expect(second.changed == ["app.lua"])
        // Once the stamp has settled, an unchanged file is not reported, and its hash is dropped.
        Thread.sleep(forTimeInterval: PollingDirectoryWatcher.settleTime * 2)
        let third = try #require(PollingDirectoryWatcher.relist(directory, previous: second.listing))
        #expect(third.changed.isEmpty)
        #expect(third.listing["app.lua"]?.contentHash == nil)
        let fourth = try #require(PollingDirectoryWatcher.relist(directory, previous: third.listing))
        #expect(fourth.changed.isEmpty)
    }

    @Test func aFolderIsReportedWhenMadeOrRemovedNotWhenWhatIsInItChanges() throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        let root = tree.root.standardizedFileURL.path
        let before = try #require(PollingDirectoryWatcher.list(root, previous: nil))
        try FileManager.default.createDirectory(atPath: tree.path("media"), withIntermediateDirectories: false)
        let made = try #require(PollingDirectoryWatcher.relist(root, previous: before))
        #expect(made.changed == ["media"])
        try tree.write("tests/a.fixture.json", "{}")
        let inside = try #require(PollingDirectoryWatcher.relist(root, previous: made.listing))
        #expect(inside.changed.isEmpty)
        try FileManager.default.removeItem(atPath: tree.path("media"))
        let removed = try #require(PollingDirectoryWatcher.relist(root, previous: inside.listing))
        #expect(removed.changed == ["media"])
    }

    @Test func aWatchedDirectoryThatGoesAwayIsReportedAndWatchedNoMore() async throws {
        let tree = try FixtureTree()
        defer { tree.remove() }
        try tree.write("rules/app.lua", "-- a")
        let watcher = PollingDirectoryWatcher(interval: .milliseconds(20), debounce: .milliseconds(50))
        defer { watcher.stop() }
        watcher.watch([tree.path("rules"), tree.path("missing")])
        var changes = watcher.changes.makeAsyncIterator()
        try FileManager.default.removeItem(atPath: tree.path("rules"))
        let burst = await changes.next()
        #expect(burst?.paths == [tree.path("rules"), tree.path("rules/app.lua")])
        #expect(watcher.scan().isEmpty)
    }
}
