import Foundation
import LuaSandbox
import MediaDownloader
import NotificationModel

extension DownloadModule {
    /// `content:attach(file [, options])`: checks a file against Apple's attachment rules and
    /// adds it to the content.
    func attach(_ binding: Binding, file: LuaOutput, options: LuaOutput) -> HostReturn {
        let run = binding.run
        guard case .table(let table) = file, let path = table["path"].stringValue else {
            return .error("bad argument #1 to 'attach' (a file from download() or {path=...} expected, got \(Arguments.describe(file)))")
        }
        let attachOptions: AttachOptions
        do {
            attachOptions = try AttachOptions(json: options.isNil ? nil : ValueConversion.json(options, path: "options"))
        } catch let error as AttachmentError {
            return .values([.nil, .text(error.message)])
        } catch let error as ConversionError {
            return .values([.nil, .text("invalid options: \(error.message)")])
        } catch {
            return .values([.nil, .text("invalid options: \(error)")])
        }
        let mediaDirectory = host.services.configuration.mediaDirectory
        let url: URL
        if let mediaDirectory, !path.hasPrefix("/") {
            url = mediaDirectory.appendingPathComponent(path).standardizedFileURL
        } else {
            url = URL(fileURLWithPath: path).standardizedFileURL
        }
        guard let source = readableFile(url, run: run) else {
            return .values([.nil, .text("not allowed: \(path) is neither a download of this request nor a file of the media directory")])
        }
        let sniffed: MediaType?
        let size: Int
        do {
            sniffed = try MediaType.sniff(fileAt: source)
            size = (try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            return .values([.nil, .text("cannot read \(path): \(error.localizedDescription)")])
        }
        do {
            _ = try AttachmentKind.check(type: sniffed?.uti, size: size)
        } catch {
            return .values([.nil, .text(error.message)])
        }
        guard let type = sniffed else { return .values([.nil, .text("unsupported type: the file's bytes are of no known type")]) }
        // iOS decides an attachment's type by its extension: a file that is not one of this
        // request's downloads is copied into the request's folder under the right name.
        let placed: URL
        do { placed = try place(source, type: type, run: run) } catch {
            return .values([.nil, .text("cannot copy \(path) for attaching: \(error.localizedDescription)")])
        }
        if source.pathExtension.lowercased() != type.fileExtension, !(type == .jpeg && source.pathExtension.lowercased() == "jpeg") {
            run.log(.warn, "\(source.lastPathComponent) holds \(type.uti) data; attached as \(placed.lastPathComponent)", host: true)
        }
        let attachment: NotificationAttachment
        do {
            attachment = try NotificationAttachment(
                identifier: attachOptions.identifier ?? UUID().uuidString, type: type.uti,
                url: NotificationAttachment.fileURL(forPath: placed.path), size: size, options: attachOptions.options)
        } catch {
            return .values([.nil, .text(error.message)])
        }
        switch run.recordAttachment(attachment, in: binding.phase) {
        case .recorded: return .values([ValueConversion.lua(attachment.jsonValue)])
        case .refused(let message): return .values([.nil, .text(message)])
        case .phaseOver: return .kill(.time)
        }
    }

    /// The file when the script may attach it: a download of this request, a file that a
    /// media answer names, or a file under the host's media directory.
    private func readableFile(_ url: URL, run: RequestRun) -> URL? {
        let path = url.resolvingSymlinksInPath().path
        let folder = run.attachmentDirectory.resolvingSymlinksInPath().path + "/"
        if path.hasPrefix(folder), FileManager.default.isReadableFile(atPath: path) { return url }
        let mediaFiles = Set(run.media.values.compactMap { $0.file?.standardizedFileURL.resolvingSymlinksInPath().path })
        if mediaFiles.contains(path), FileManager.default.isReadableFile(atPath: path) { return url }
        if let media = host.services.configuration.mediaDirectory {
            let folder = media.standardizedFileURL.resolvingSymlinksInPath().path + "/"
            if path.hasPrefix(folder), FileManager.default.isReadableFile(atPath: path) { return url }
        }
        return nil
    }

    /// The file in the request's folder with its type's extension (copied there if needed).
    /// A file is copied once per request however often it is attached: its copy is named for
    /// its path, and a copy already there is used again.
    private func place(_ source: URL, type: MediaType, run: RequestRun) throws -> URL {
        let folder = run.attachmentDirectory.resolvingSymlinksInPath().path + "/"
        let resolved = source.resolvingSymlinksInPath().path
        if resolved.hasPrefix(folder), source.pathExtension.lowercased() == type.fileExtension {
            return source
        }
        try FileManager.default.createDirectory(at: run.attachmentDirectory, withIntermediateDirectories: true)
        let stem = source.deletingPathExtension().lastPathComponent
        let target = run.attachmentDirectory.appendingPathComponent("\(stem)-\(Self.pathDigest(resolved)).\(type.fileExtension)")
        if FileManager.default.fileExists(atPath: target.path) { return target }
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }

    /// 16 hex digits that tell files' paths apart (FNV-1a, 64 bits).
    static func pathDigest(_ path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
