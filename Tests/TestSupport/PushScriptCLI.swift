import Foundation
import Synchronization

/// What a run of `pushscript` left.
public struct CLIOutput: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// Standard output's lines, empty ones left out.
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Standard error's lines.
    public var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs the built `pushscript` binary.
public enum CLI {
    /// The binary: SwiftPM builds it beside the test runner of a test target that depends on it.
    public static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pushscript")

    /// Runs `pushscript arguments...` (or `executable`) with `stdin` as its input, in
    /// `directory`, with `environment` over the test runner's; kills it after `timeout`.
    public static func run(
        _ arguments: [String], stdin: String = "", in directory: URL? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(120), executable: URL = binary
    ) async throws -> CLIOutput {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw MissingBinary(path: executable.path)
        }
        let streams = try TemporaryFolder("pushscript-cli")
        let inURL = streams.file("in")
        let outURL = streams.file("out")
        let errURL = streams.file("err")
        try Data(stdin.utf8).write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try FileHandle(forWritingTo: outURL)
        let errors = try FileHandle(forWritingTo: errURL)
        defer {
            try? input.close()
            try? output.close()
            try? errors.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let status = try await runToEnd(process, timeout: timeout)
        return CLIOutput(
            status: status,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// The commands `pushscript --help` lists.
    public static func listedCommands() async throws -> [String] {
        let out = try await run(["--help"])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "commands:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The subcommands `pushscript GROUP --help` lists, as `GROUP WORD`; none for a command
    /// that groups none.
    public static func listedSubcommands(of group: String) async throws -> [String] {
        let out = try await run([group, "--help"])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "subcommands:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map { "\(group) \($0)" } }
    }

    /// Starts `process` and waits for its exit without holding a thread; terminates it after
    /// `timeout` (status -1 then).
    public static func runToEnd(_ process: Process, timeout: Duration) async throws -> Int32 {
        let state = ExitWait()
        @Sendable func finish(_ result: Result<Int32, any Error>) {
            let continuation = state.withLock { s in
                defer { s.continuation = nil }
                return s.continuation
            }
            continuation?.resume(with: result)
        }
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.continuation = continuation }
            process.terminationHandler = { p in
                finish(.success(state.withLock { $0.timedOut } ? -1 : p.terminationStatus))
            }
            do { try process.run() } catch {
                finish(.failure(error))
                return
            }
            let child = UncheckedProcess(process)
            Task {
                try? await Task.sleep(for: timeout)
                guard child.process.isRunning else { return }
                state.withLock { $0.timedOut = true }
                child.process.terminate()
            }
        }
    }
}

/// A process handed to the task that enforces its timeout (Process is not Sendable; the task
/// only asks whether it runs and terminates it, which Process allows from any thread).
private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}

/// What `runToEnd` waits on: the continuation to resume once, and whether the timeout fired.
private final class ExitWait: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Int32, any Error>?, timedOut: Bool)>((nil, false))

    func withLock<T>(_ body: (inout (continuation: CheckedContinuation<Int32, any Error>?, timedOut: Bool)) -> T) -> T {
        state.withLock { body(&$0) }
    }
}

/// The binary is not where a test looks for it.
public struct MissingBinary: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "no pushscript binary at \(path); build the package first" }
}
