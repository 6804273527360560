import CLuaSandbox

/// A class of host objects defined in one ``LuaSandbox``.
package struct HostClass: Sendable, Hashable {
    let id: Int32
}

extension LuaSandbox {
    /// Defines a class of host objects (full userdata with a locked metatable). Reading a key
    /// calls `index` with the key; writing calls `newIndex` with the key and the value. Keys
    /// named in `slots` hold Lua values of their own: reading one returns the value stored
    /// there, live; writing one calls `newIndex` first and stores the value only when it
    /// returns without error. Keys named in `textFields` are the class's text fields: a read
    /// of one, and a write of a string to one, call `textField` with the field's index and the
    /// string's bytes, without the generic copying of a host call's arguments (a write of any
    /// other value calls `newIndex` as for any key). `nil` when memory ran out.
    package func defineClass(
        name: String, slots: [String] = [], textFields: [String] = [],
        index: @escaping HostFunction, newIndex: @escaping HostFunction,
        textField: TextFieldFunction? = nil
    ) -> HostClass? {
        let indexID = addFunction(index)
        let newIndexID = addFunction(newIndex)
        var textID: Int32 = -1
        if let textField {
            textFieldFunctions.append(textField)
            textID = Int32(textFieldFunctions.count - 1)
        }
        let texts = textField == nil ? [] : textFields
        var classID: Int32 = 0
        // NUL-terminated copies of the slot and text field names, alive for the call
        let slotStorage = slots.map { ContiguousArray($0.utf8CString) }
        let textStorage = texts.map { ContiguousArray($0.utf8CString) }
        let status = withCStringPointers(slotStorage) { slotNames in
            withCStringPointers(textStorage) { textNames in
                pss_class_new(context, name, indexID.rawValue, newIndexID.rawValue, slotNames.baseAddress, Int32(slotNames.count),
                              textID, textNames.baseAddress, Int32(textNames.count), &classID)
            }
        }
        return status == Int32(PSS_OK.rawValue) ? HostClass(id: classID) : nil
    }

    /// Makes an object of a class, known to the host by `id`. `nil` when memory ran out.
    package func makeObject(of hostClass: HostClass, id: Int32) -> LuaReference? {
        var ref: Int32 = 0
        let status = pss_object_new(context, hostClass.id, id, &ref)
        return status == Int32(PSS_OK.rawValue) ? LuaReference(ref: ref) : nil
    }

    /// Stores a held value in slot `slot` (0-based, in the order the class named them).
    @discardableResult
    package func setSlot(_ slot: Int, of object: LuaReference, to value: LuaReference) -> Bool {
        pss_object_set_slot(context, object.ref, Int32(slot + 1), value.ref) == Int32(PSS_OK.rawValue)
    }

    /// Stores the value `write` writes in slot `slot` (0-based) of `object`, as
    /// ``setSlot(_:of:to:)`` does with a value made first, and keeps what was written: a
    /// ``readTouchedSlot(_:of:)`` of a value the script only read compares it with that,
    /// without copying the value out. False when memory ran out or the value was malformed.
    package func setSlot(_ slot: Int, of object: LuaReference, writing write: (inout LuaValueWriter) -> Void) -> Bool {
        var writer = LuaValueWriter()
        write(&writer)
        return setSlot(slot, of: object, encoded: writer)
    }

    /// Stores `value`, written beforehand, in slot `slot` (0-based) of `object`, as
    /// ``setSlot(_:of:writing:)`` stores what it writes.
    package func setSlot(_ slot: Int, of object: LuaReference, encoded value: LuaValueWriter) -> Bool {
        value.bytes.withUnsafeBufferPointer {
            pss_object_set_slot_encoded(context, object.ref, Int32(slot + 1), $0.baseAddress, $0.count)
        } == Int32(PSS_OK.rawValue)
    }

    /// Copies the value in slot `slot` (0-based) out of the state (raw access).
    package func readSlot(_ slot: Int, of object: LuaReference) -> Result<LuaOutput, SandboxError> {
        readValue { pss_object_read_slot(context, object.ref, Int32(slot + 1), $0, $1) }
    }

    /// Copies the value in slot `slot` (0-based) out of the state, as ``readSlot(_:of:)``
    /// does, but only when it may differ from what the host stored: `nil` when no script has
    /// read or written the slot since, or when what it holds still is the host's value, read
    /// and not changed (the same types, numbers, strings and tables, compared in place; a
    /// function or object in it counts as a change). Once a read found it changed, every
    /// later read copies it.
    package func readTouchedSlot(_ slot: Int, of object: LuaReference) -> Result<LuaOutput?, SandboxError> {
        var touched: Int32 = 0
        let value = readValue { pss_object_read_touched_slot(context, object.ref, Int32(slot + 1), $0, $1, &touched) }
        guard touched != 0 else { return .success(nil) }
        return value.map { Optional($0) }
    }
}

/// Calls `body` with pointers to the NUL-terminated strings in `storage`.
private func withCStringPointers<T>(
    _ storage: [ContiguousArray<CChar>], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> T
) -> T {
    func step(_ index: Int, _ collected: [UnsafePointer<CChar>?]) -> T {
        if index == storage.count { return collected.withUnsafeBufferPointer(body) }
        return storage[index].withUnsafeBufferPointer { step(index + 1, collected + [$0.baseAddress]) }
    }
    return step(0, [])
}
