import LuaSandbox
import NotificationModel

/// The `content` object scripts see: a userdata whose reads and writes go to the request's
/// ``NotificationContent`` at once, checked as SPEC section 1 says. `userInfo` is a live Lua
/// table kept in the object and read back when a handler returns. Its methods are
/// `content:attach(file [, options])` (``DownloadModule/attach(_:file:options:)``),
/// `content:removeAttachments()` and `content:suppress()`. In `afterDelivery` the object is a
/// read-only view of what was delivered: reads work, writes and methods raise.
///
/// Also makes each request's read-only `request` table.
final class ContentModule: ScriptModule {
    private unowned let host: ModuleHost
    /// Checks and places the files `content:attach` is given.
    private let downloads: DownloadModule
    /// The class of `content` objects, once installed (nil when the state could not define it).
    private var contentClass: HostClass?
    /// The functions of `content`'s methods, by name.
    private var methodIDs: [String: HostFunctionID] = [:]
    /// Makes the fields of a request's `request` table when its script first looks into it.
    private var requestLoader: HostFunctionID?

    /// The Lua values a `content` object keeps: its live `userInfo` table.
    static let slots = ["userInfo"]

    init(host: ModuleHost, downloads: DownloadModule) {
        self.host = host
        self.downloads = downloads
    }

    func install() {
        method("attach", usage: "attach(file)") { [downloads] binding, call in
            downloads.attach(binding, file: call[1], options: call[2])
        }
        method("removeAttachments", usage: "removeAttachments()") { binding, _ in
            _ = binding.run.removeAttachments(in: binding.phase)
            return .none
        }
        method("suppress", usage: "suppress()") { binding, _ in
            _ = binding.run.write(binding.phase) { $0.suppressed = true }
            return .none
        }
        requestLoader = host.sandbox.addFunction { [unowned host] _ in
            guard let binding = host.active else { return .kill(.time) }
            return .values([Self.requestFields(binding.run)])
        }
        contentClass = host.sandbox.defineClass(
            name: "content", slots: Self.slots, textFields: Self.textFields.map(\.rawValue),
            index: { [unowned self] call in contentIndex(call) },
            newIndex: { [unowned self] call in contentNewIndex(call) },
            textField: { [unowned self] _, field, access in textField(Self.textFields[field], access) })
    }

    /// The fields that hold text: a read of one, and a string written to one, come here without
    /// the generic copying of a host call (``textField(_:_:)``), checked by the same rules.
    static let textFields: [ContentField] = [
        .title, .subtitle, .body, .categoryIdentifier, .threadIdentifier, .targetContentIdentifier,
        .interruptionLevel, .filterCriteria, .launchImageName, .summaryArgument,
    ]

    /// A read of a text field, or a string written to one: what ``contentIndex(_:)`` and
    /// ``contentNewIndex(_:)`` do for that field and value.
    private func textField(_ field: ContentField, _ access: TextFieldAccess) -> HostReturn {
        guard let binding = host.active else { return .kill(.time) }
        switch access {
        case .read:
            return read(field, binding)
        case .write(let bytes):
            if binding.phase == .afterDelivery { return .error(Self.readOnlyMessage) }
            guard let text = UTF8Text.string(bytes) else {
                return .error("\(field.rawValue) must be valid UTF-8")
            }
            return write(field, .string(text), binding)
        }
    }

    /// Adds a method of `content`, called as `content:name(...)`.
    private func method(_ name: String, usage: String, _ body: @escaping (Binding, HostCall) -> HostReturn) {
        methodIDs[name] = host.sandbox.addFunction { [unowned host] call in
            guard let binding = host.active else { return .kill(.time) }
            guard case .object = call[0] else { return .error("\(name) is a method: call content:\(usage)") }
            if binding.phase == .afterDelivery { return .error(Self.readOnlyMessage) }
            return body(binding, call)
        }
    }

    private func contentIndex(_ call: HostCall) -> HostReturn {
        guard let binding = host.active else { return .kill(.time) }
        guard let key = call[0].stringValue else {
            return .error("content has no field \(call[0].typeName == "string" ? "'?'" : "of type \(call[0].typeName)")")
        }
        if let method = methodIDs[key] { return .values([.function(method)]) }
        guard let field = ContentField(rawValue: key) else { return .error("content has no field '\(key)'") }
        // attachments: a copy, so changing it changes nothing, and its metatable is locked
        if field == .attachments {
            return .values([.lockedCopy(LuaTable(array: binding.run.read { $0.attachments }.map(ValueConversion.lua)))])
        }
        return read(field, binding)
    }

    /// A field's value for the script.
    private func read(_ field: ContentField, _ binding: Binding) -> HostReturn {
        guard let value = binding.run.read({ $0.value(of: field) }) else { return .values([.nil]) }
        return .values([ValueConversion.lua(value)])
    }

    /// What a write to `content` in `afterDelivery` raises.
    static let readOnlyMessage = "content is read-only after delivery"

    private func contentNewIndex(_ call: HostCall) -> HostReturn {
        guard let binding = host.active else { return .kill(.time) }
        if binding.phase == .afterDelivery { return .error(Self.readOnlyMessage) }
        guard let key = call[0].stringValue else { return .error("content has no field of type \(call[0].typeName)") }
        guard let field = ContentField(rawValue: key) else { return .error("content has no field '\(key)'") }
        let json: JSONValue?
        do {
            json = try ValueConversion.optionalJSON(call[1], path: key)
        } catch {
            if field == .userInfo { return .error("userInfo must be JSON-shaped: \(error.message)") }
            if case .string = call[1] { return .error("\(key) must be valid UTF-8") }
            return .error("\(key) must be \(field.scriptRequirement)")
        }
        return write(field, json, binding)
    }

    /// Sets a field to a value the script gave, for the script: nothing, or why it was refused.
    private func write(_ field: ContentField, _ json: JSONValue?, _ binding: Binding) -> HostReturn {
        switch set(field, to: json, binding) {
        case .phaseOver: return .kill(.time)
        case .written: return .none
        case .refused(let message): return .error(message)
        }
    }

    /// What setting a content field came to.
    private enum FieldWrite {
        /// The field holds the new value.
        case written
        /// The value was refused: why, for the script.
        case refused(String)
        /// The request is over for this phase (the host gave up on it): nothing was written.
        case phaseOver
    }

    /// Sets a field of the request's content.
    private func set(_ field: ContentField, to json: JSONValue?, _ binding: Binding) -> FieldWrite {
        binding.run.write(binding.phase) { state -> FieldWrite in
            do throws(ContentFieldError) {
                try state.content.set(field, to: json)
                return .written
            } catch {
                return .refused(error.scriptMessage)
            }
        } ?? .phaseOver
    }

    /// Reads the live `userInfo` table back into the content. Returns an error message when it
    /// is not JSON-shaped (the last good `userInfo` stays). Nothing is read back when the
    /// script left `content.userInfo` as the host made it (untouched, or only read).
    func readBackUserInfo(_ binding: Binding, object: LuaReference) -> ReadBackProblem? {
        let value: LuaOutput
        switch host.sandbox.readTouchedSlot(0, of: object) {
        case .success(.none): return nil
        case .success(.some(let v)): value = v
        case .failure(let error):
            let message = "userInfo could not be read back: \(error.message)"
            // A read stopped when the request's CPU or time ran out ends the run as that limit.
            if let kind = host.sandbox.limitPassed() {
                host.sandbox.markLimitHit()
                return ReadBackProblem(message: message, limit: kind)
            }
            return ReadBackProblem(message: message, limit: nil)
        }
        let json: JSONValue
        do { json = try ValueConversion.json(value, path: "userInfo") } catch {
            return ReadBackProblem(message: "userInfo must be JSON-shaped: \(error.message)", limit: nil)
        }
        if case .refused(let message) = set(.userInfo, to: json, binding) { return ReadBackProblem(message: message, limit: nil) }
        return nil
    }

    /// Makes the `content` object for a request: the userdata and its live `userInfo`.
    func makeContentObject(_ run: RequestRun) -> LuaReference? {
        let sandbox = host.sandbox
        guard let contentClass, let object = sandbox.makeObject(of: contentClass, id: 1) else { return nil }
        let userInfo = run.read { $0.userInfo }
        // the payload's encoding, made as its line was read, while the content's is the payload's
        let stored = if let encoded = run.userInfoEncoding?.bytes(for: userInfo) {
            sandbox.setSlot(0, of: object, encoded: encoded)
        } else {
            sandbox.setSlot(0, of: object, writing: { LuaJSONSink.write(.object(userInfo), into: &$0) })
        }
        guard stored else {
            sandbox.release(object)
            return nil
        }
        return object
    }

    /// The content as `request.content` shows it: its fields, unset ones left out (nil).
    static func snapshot(_ content: NotificationContent) -> LuaInput {
        .table(LuaTable(fields: ContentField.allCases.compactMap { field in
            content.value(of: field).map { (field.rawValue, ValueConversion.lua($0)) }
        }))
    }

    /// Makes the read-only `request` table, whose fields are made when the script first
    /// looks into it (``requestFields(_:)``, by ``requestLoader``).
    func makeRequestValue() -> LuaReference? {
        guard let requestLoader else { return nil }
        return host.sandbox.makeLazyValue(named: "request", loader: requestLoader)
    }

    /// The `request` table of `run`: what the script sees once it looks into `request`.
    static func requestFields(_ run: RequestRun) -> LuaInput {
        var fields: [(String, LuaInput)] = [
            ("identifier", .text(run.identifier)),
            ("content", Self.snapshot(run.original)),
            ("locales", .table(LuaTable(array: run.locales.map(LuaInput.text)))),
        ]
        if let app = run.app { fields.append(("app", .text(app))) }
        return .readOnly(name: "request", LuaTable(fields: fields))
    }
}

/// Why a handler's `userInfo` could not be read back: what to say, and the limit that stopped
/// the read when one did (the run then ends as that limit, not as an error).
struct ReadBackProblem: Sendable {
    let message: String
    let limit: LimitKind?
}
