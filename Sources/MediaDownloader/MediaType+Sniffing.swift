import Foundation
import NotificationModel

extension MediaType {
    /// How many leading bytes of a file sniffing looks at.
    public static let sniffLength = 512

    /// The supported type that these leading bytes of a file show, or nil when they show none.
    ///
    /// Only the bytes decide, never a name or a server's word. Recognised:
    /// JPEG (`FF D8 FF`), PNG (its 8-byte signature), GIF (`GIF87a`, `GIF89a`),
    /// WAV (`RIFF`…`WAVE`), AVI (`RIFF`…`AVI `), AIFF (`FORM`…`AIFF` or `AIFC`),
    /// MP3 (an ID3v2 tag, or a bare MPEG audio Layer III frame header, checked against the next
    /// frame's header when that lies within the bytes given), ISO media files by their `ftyp`
    /// brands (`M4A `, `M4B `, `M4P ` are MPEG-4 audio; `isom`, `iso2`…`iso9`, `mp41`, `mp42`,
    /// `M4V `, `avc1`, `3gp*`, `3g2*` and a few more are MPEG-4 video; the major brand is looked
    /// at first, then the compatible brands), MPEG program streams (`00 00 01 BA`) and MPEG video
    /// elementary streams (`00 00 01 B3`).
    ///
    /// - Parameter bytes: the file's first bytes; ``sniffLength`` of them is enough.
    public static func sniff(_ bytes: some Collection<UInt8>) -> MediaType? {
        let head = Array(bytes.prefix(sniffLength))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.hasASCII("GIF87a", at: 0) || head.hasASCII("GIF89a", at: 0) { return .gif }
        if head.hasASCII("RIFF", at: 0) {
            if head.hasASCII("WAVE", at: 8) { return .wav }
            if head.hasASCII("AVI ", at: 8) { return .avi }
            return nil
        }
        if head.hasASCII("FORM", at: 0) {
            return head.hasASCII("AIFF", at: 8) || head.hasASCII("AIFC", at: 8) ? .aiff : nil
        }
        if head.starts(with: [0x00, 0x00, 0x01, 0xBA]) { return .mpeg }
        if head.starts(with: [0x00, 0x00, 0x01, 0xB3]) { return .mpeg2Video }
        if head.hasASCII("ftyp", at: 4) { return isoMediaType(head) }
        if hasID3v2Tag(head) || hasMPEGAudioFrames(head) { return .mp3 }
        return nil
    }

    /// The supported type of the file at `url`, decided from its first ``sniffLength`` bytes,
    /// or nil when they show none.
    ///
    /// - Throws: when the file cannot be opened or read.
    public static func sniff(fileAt url: URL) throws -> MediaType? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let data = try handle.read(upToCount: sniffLength) ?? Data()
        return sniff(data)
    }
}

// MARK: - ISO base media files (MP4, M4A, M4V, 3GP)

extension MediaType {
    private static let mpeg4AudioBrands: Set<String> = ["M4A ", "M4B ", "M4P "]
    private static let mpeg4VideoBrands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9",
        "mp41", "mp42", "mp71", "M4V ", "M4VH", "M4VP", "avc1", "dash", "MSNV", "f4v ", "mmp4",
        "NDAS", "NDSC", "NDSH", "NDSM", "NDSP", "NDSS", "NDXC", "NDXH", "NDXM", "NDXP", "NDXS",
    ]

    private static func isoMediaType(_ head: [UInt8]) -> MediaType? {
        guard head.count >= 12 else { return nil }
        let declared = Int(head.bigEndianUInt32(at: 0))
        let boxEnd = declared >= 16 ? min(declared, head.count) : head.count
        var brands = [head.ascii(8..<12)]
        var offset = 16
        while offset + 4 <= boxEnd {
            brands.append(head.ascii(offset..<(offset + 4)))
            offset += 4
        }
        for brand in brands {
            if mpeg4AudioBrands.contains(brand) { return .m4a }
            if mpeg4VideoBrands.contains(brand) || brand.hasPrefix("3gp") || brand.hasPrefix("3g2") { return .mp4 }
        }
        return nil
    }
}

// MARK: - MP3

extension MediaType {
    /// `ID3` + major version 2…4 + revision + flags + a 28-bit syncsafe size.
    private static func hasID3v2Tag(_ head: [UInt8]) -> Bool {
        guard head.count >= 10, head.hasASCII("ID3", at: 0) else { return false }
        guard (2...4).contains(head[3]), head[4] != 0xFF else { return false }
        return head[6..<10].allSatisfy { $0 < 0x80 }
    }

    /// A valid MPEG audio Layer III frame header at the start; when the next frame begins
    /// within `head`, its header must be valid and of the same version and layer too.
    private static func hasMPEGAudioFrames(_ head: [UInt8]) -> Bool {
        guard let first = MPEGAudioFrameHeader(head, at: 0) else { return false }
        let next = first.length
        guard next + 4 <= head.count else { return true }
        guard let second = MPEGAudioFrameHeader(head, at: next) else { return false }
        return second.version == first.version
    }
}

/// The parts of an MPEG audio Layer III frame header that sniffing checks.
private struct MPEGAudioFrameHeader {
    /// 3 for MPEG-1, 2 for MPEG-2, 0 for MPEG-2.5.
    let version: UInt8
    /// The frame's length in bytes, header included.
    let length: Int

    private static let bitratesV1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let bitratesV2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]

    init?(_ bytes: [UInt8], at offset: Int) {
        guard offset + 4 <= bytes.count else { return nil }
        let b1 = bytes[offset + 1], b2 = bytes[offset + 2]
        guard bytes[offset] == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let version = (b1 >> 3) & 0x03
        let layer = (b1 >> 1) & 0x03
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 0x03)
        let padding = Int((b2 >> 1) & 0x01)
        guard version != 1, layer == 1, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let rates: [Int] = switch version {
        case 3: [44_100, 48_000, 32_000]
        case 2: [22_050, 24_000, 16_000]
        default: [11_025, 12_000, 8_000]
        }
        let kbps = (version == 3 ? Self.bitratesV1 : Self.bitratesV2)[bitrateIndex]
        let samplesFactor = version == 3 ? 144 : 72
        self.version = version
        self.length = samplesFactor * kbps * 1000 / rates[rateIndex] + padding
    }
}

// MARK: - Byte helpers

extension [UInt8] {
    fileprivate func hasASCII(_ text: String, at offset: Int) -> Bool {
        let expected = Array(text.utf8)
        guard offset >= 0, offset + expected.count <= count else { return false }
        return self[offset..<(offset + expected.count)].elementsEqual(expected)
    }

    fileprivate func ascii(_ range: Range<Int>) -> String {
        String(decoding: self[range], as: UTF8.self)
    }

    fileprivate func bigEndianUInt32(at offset: Int) -> UInt32 {
        self[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
