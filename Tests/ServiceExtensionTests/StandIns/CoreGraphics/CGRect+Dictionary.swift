// Declarations of Apple's CoreGraphics as its documentation gives them, for type-checking
// only. Foundation on Linux has CGRect itself.
import Foundation

/// CoreFoundation's dictionary, toll-free bridged to `NSDictionary`.
public typealias CFDictionary = NSDictionary

extension CGRect {
    /// The rectangle as a dictionary (`CGRectCreateDictionaryRepresentation`).
    public var dictionaryRepresentation: CFDictionary { NSDictionary() }
}
