import NotificationModel
import ScriptBundles

extension ServeLog {
    /// What the installed scripts of `--state` and `--trust` report: a candidate rolled back or
    /// promoted, a version that cannot be served, a state or counts that cannot be read or
    /// written. In text, the line `HostOptions.message(for:command:)` says; in JSON, an event
    /// named for it.
    func installed(_ event: InstalledScripts.Event) {
        let text = HostOptions.message(for: event, command: "serve")
        switch event {
        case .rolledBack(let app, let version, let reason):
            self.event("bundle-rolled-back", ["app": .string(app), "version": .integer(Int64(version)), "reason": .string(Self.oneLine(reason))], text: text)
        case .promoted(let app, let version):
            self.event("bundle-promoted", ["app": .string(app), "version": .integer(Int64(version))], text: text)
        case .unusable(let app, let version, let message):
            self.event("bundle-unusable", ["app": .string(app), "version": .integer(Int64(version)), "message": .string(Self.oneLine(message))], text: text)
        case .unreadableState(let app, let message):
            self.event("bundle-state-unreadable", ["app": .string(app), "message": .string(Self.oneLine(message))], text: text)
        case .countsNotWritten(let app, let message):
            self.event("bundle-counts-not-written", ["app": .string(app), "message": .string(Self.oneLine(message))], text: text)
        }
    }
}
