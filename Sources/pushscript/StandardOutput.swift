import Foundation

/// Writes `bytes` to standard output as they are, without copying them.
func standardOutput(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none))
    }
}
