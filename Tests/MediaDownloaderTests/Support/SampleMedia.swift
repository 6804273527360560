import MediaDownloader
import NotificationModel

/// Small, valid sample files of every supported type, made in code.
enum SampleMedia {
    /// A 1×1 grey baseline JPEG: one all-zero block coded with one-symbol Huffman tables.
    static let jpeg: [UInt8] = {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x10] + ascii("JFIF") + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]
        let oneCode: [UInt8] = [0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00] + oneCode
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x10] + oneCode
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        bytes += [0x3F]
        bytes += [0xFF, 0xD9]
        return bytes
    }()

    /// A 1×1 red RGB PNG with a stored (uncompressed) zlib stream.
    static let png: [UInt8] = {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += pngChunk("IHDR", be32(1) + be32(1) + [8, 2, 0, 0, 0])
        let scanline: [UInt8] = [0, 0xFF, 0, 0]
        let zlib: [UInt8] = [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF] + scanline + be32(adler32(scanline))
        bytes += pngChunk("IDAT", zlib)
        bytes += pngChunk("IEND", [])
        return bytes
    }()

    /// A 1×1 GIF89a.
    static let gif: [UInt8] = ascii("GIF89a") + [
        0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00,
        0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
    ]

    /// 100 ms of 8 kHz 8-bit mono silence.
    static let wav: [UInt8] = {
        let samples = [UInt8](repeating: 0x80, count: 800)
        var fmt = le16(1) + le16(1) + le32(8000) + le32(8000)
        fmt += le16(1) + le16(8)
        var body = ascii("WAVE") + ascii("fmt ") + le32(UInt32(fmt.count)) + fmt
        body += ascii("data") + le32(UInt32(samples.count)) + samples
        return ascii("RIFF") + le32(UInt32(body.count)) + body
    }()

    /// 100 ms of 8 kHz 8-bit mono silence, as AIFF.
    static let aiff: [UInt8] = aiffFile(form: "AIFF")

    /// The same, as AIFF-C with compression type `NONE`.
    static let aifc: [UInt8] = aiffFile(form: "AIFC")

    /// Three silent MPEG-1 Layer III frames (128 kbps, 44.1 kHz) behind an ID3v2.3 tag.
    static let mp3WithID3: [UInt8] = {
        let title = [0x00] + ascii("sample")
        let frame = ascii("TIT2") + be32(UInt32(title.count)) + [0x00, 0x00] + title
        let tag = ascii("ID3") + [0x03, 0x00, 0x00] + syncsafe(UInt32(frame.count)) + frame
        return tag + mp3Bare
    }()

    /// Three silent MPEG-1 Layer III frames (128 kbps, 44.1 kHz), no tag.
    static let mp3Bare: [UInt8] = {
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 417 - 4)
        return frame + frame + frame
    }()

    /// An ISO media file with major brand `M4A `.
    static let m4a: [UInt8] = isoFile(major: "M4A ", compatible: ["M4A ", "mp42", "isom"])

    /// An ISO media file with major brand `isom`.
    static let mp4: [UInt8] = isoFile(major: "isom", compatible: ["isom", "iso2", "avc1", "mp41"])

    /// An ISO media file with major brand `M4V ` (and `M4A ` among its compatible brands).
    static let m4v: [UInt8] = isoFile(major: "M4V ", compatible: ["M4V ", "M4A ", "mp42", "isom"])

    /// A 3GPP file (major brand `3gp5`).
    static let threeGP: [UInt8] = isoFile(major: "3gp5", compatible: ["3gp5", "isom"])

    /// An MPEG-2 program stream: one pack header and the end code.
    static let mpegProgramStream: [UInt8] = [
        0x00, 0x00, 0x01, 0xBA, 0x44, 0x00, 0x04, 0x00, 0x04, 0x01, 0x01, 0x89, 0xC3, 0xF8,
        0x00, 0x00, 0x01, 0xB9,
    ]

    /// An MPEG video elementary stream: a 16×16 sequence header and the sequence end code.
    static let mpegVideoStream: [UInt8] = [
        0x00, 0x00, 0x01, 0xB3, 0x01, 0x00, 0x10, 0x13, 0xFF, 0xFF, 0xE0, 0x18,
        0x00, 0x00, 0x01, 0xB7,
    ]

    /// An AVI file with an empty header list and an empty `movi` list.
    static let avi: [UInt8] = {
        let avih = ascii("avih") + le32(56) + [UInt8](repeating: 0, count: 56)
        let hdrl = ascii("LIST") + le32(UInt32(4 + avih.count)) + ascii("hdrl") + avih
        let movi = ascii("LIST") + le32(4) + ascii("movi")
        let body = ascii("AVI ") + hdrl + movi
        return ascii("RIFF") + le32(UInt32(body.count)) + body
    }()

    /// Every sample with the type it must sniff as, a name, and the Content-Type a server would send.
    static let all: [(name: String, bytes: [UInt8], type: MediaType, contentType: String)] = [
        ("jpeg", jpeg, .jpeg, "image/jpeg"),
        ("png", png, .png, "image/png"),
        ("gif", gif, .gif, "image/gif"),
        ("wav", wav, .wav, "audio/wav"),
        ("aiff", aiff, .aiff, "audio/aiff"),
        ("aifc", aifc, .aiff, "audio/x-aiff"),
        ("mp3-id3", mp3WithID3, .mp3, "audio/mpeg"),
        ("mp3-bare", mp3Bare, .mp3, "audio/mpeg"),
        ("m4a", m4a, .m4a, "audio/mp4"),
        ("mp4", mp4, .mp4, "video/mp4"),
        ("m4v", m4v, .mp4, "video/x-m4v"),
        ("3gp", threeGP, .mp4, "video/3gpp"),
        ("mpeg-ps", mpegProgramStream, .mpeg, "video/mpeg"),
        ("m2v", mpegVideoStream, .mpeg2Video, "video/mpeg"),
        ("avi", avi, .avi, "video/x-msvideo"),
    ]

    // MARK: - Builders

    private static func aiffFile(form: String) -> [UInt8] {
        let frames: UInt32 = 800
        // 8000 as an 80-bit IEEE 754 extended float.
        let rate: [UInt8] = [0x40, 0x0B, 0xFA, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        var comm = be16(1) + be32(frames) + be16(8) + rate
        var chunks: [UInt8] = []
        if form == "AIFC" {
            chunks += ascii("FVER") + be32(4) + be32(0xA280_5140)
            comm += ascii("NONE") + [14] + ascii("not compressed") + [0]
        }
        chunks += ascii("COMM") + be32(UInt32(comm.count)) + comm
        let sound = be32(0) + be32(0) + [UInt8](repeating: 0, count: Int(frames))
        chunks += ascii("SSND") + be32(UInt32(sound.count)) + sound
        let body = ascii(form) + chunks
        return ascii("FORM") + be32(UInt32(body.count)) + body
    }

    private static func isoFile(major: String, compatible: [String]) -> [UInt8] {
        let brands = ascii(major) + be32(0x200) + compatible.flatMap(ascii)
        let ftyp = be32(UInt32(8 + brands.count)) + ascii("ftyp") + brands
        let free = be32(8) + ascii("free")
        let mdat = be32(8) + ascii("mdat")
        return ftyp + free + mdat
    }

    private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = ascii(type) + data
        return be32(UInt32(data.count)) + typed + be32(crc32(typed))
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private static func syncsafe(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (21 - 7 * $0)) & 0x7F) } }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
