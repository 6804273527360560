import Foundation
import TestSupport
import Synchronization

/// A running `pushscript serve` that a test talks to line by line.
final class ServeSession: Sendable {
    private let process: Process
    private let input: FileHandle
    private let stdoutLines = LineCollector()
    private let stderrLines = LineCollector()

    /// Starts `pushscript serve arguments...`, with `environment` over the test runner's.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        input = inPipe.fileHandleForWriting
        try process.run()
        stdoutLines.read(outPipe.fileHandleForReading)
        stderrLines.read(errPipe.fileHandleForReading)
    }

    deinit { if process.isRunning { process.terminate() } }

    /// Sends one line.
    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Sends `text` as it is, line end or not.
    func send(raw text: String) {
        input.write(Data(text.utf8))
    }

    /// Waits until standard output holds `count` lines; returns them all.
    func output(count: Int, timeout: Duration = .seconds(60)) async throws -> [String] {
        try await waitFor(timeout: timeout) { stdoutLines.all.count >= count || stdoutLines.isClosed }
        return stdoutLines.all
    }

    /// Waits until a line of standard error contains `text`; returns standard error's lines.
    func errors(containing text: String, timeout: Duration = .seconds(60)) async throws -> [String] {
        try await waitFor(timeout: timeout) { stderrLines.all.contains { $0.contains(text) } || stderrLines.isClosed }
        return stderrLines.all
    }

    /// Standard error's lines so far.
    var errorLines: [String] { stderrLines.all }

    /// Closes standard input and waits for the exit; returns the status and every output line.
    func finish(timeout: Duration = .seconds(60)) async throws -> (status: Int32, lines: [String]) {
        try input.close()
        try await waitFor(timeout: timeout) { !process.isRunning && stdoutLines.isClosed }
        return (process.terminationStatus, stdoutLines.all)
    }

    /// The process's id.
    var pid: Int32 { process.processIdentifier }

    /// Sends `number` (SIGTERM, SIGHUP, ...) without waiting.
    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the exit; returns the status and every output line.
    func exit(timeout: Duration = .seconds(60)) async throws -> (status: Int32, lines: [String]) {
        try await waitFor(timeout: timeout) { !process.isRunning && stdoutLines.isClosed }
        return (process.terminationStatus, stdoutLines.all)
    }

    /// A line of `/proc/PID/status` as a number of KiB (`VmRSS`, `VmHWM`), while it runs.
    func memoryKiB(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// Sends SIGTERM and waits for the exit; returns the status.
    func terminate(timeout: Duration = .seconds(60)) async throws -> Int32 {
        process.terminate()
        try await waitFor(timeout: timeout) { !process.isRunning }
        return process.terminationStatus
    }

    private func waitFor(timeout: Duration, _ condition: () -> Bool) async throws {
        let end = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < end else { throw ServeTimeout() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// `serve` did not answer in time.
struct ServeTimeout: Error {}
