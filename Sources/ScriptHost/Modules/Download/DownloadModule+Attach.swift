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
        let mediaDirectory = run.mediaDirectory
        let url: URL
        if let mediaDirectory, !path.hasPrefix("/") {
            url = mediaDirectory.appendingPathComponent(path).standardizedFileURL
        } else {
            url = URL(fileURLWithPath: path).standardizedFileURL
        }
        let ready: Result<ReadyFile, HostFailure>
        if let media = mediaDirectory, let relative = Self.mediaRelativePath(path, in: media) {
            ready = mediaDirectoryFile(relative, in: media, path: path, url: url, run: run)
        } else {
            ready = requestFile(url, path: path, run: run)
        }
        let file: ReadyFile
        switch ready {
        case .success(let checked): file = checked
        case .failure(let failure): return .values([.nil, .text(failure.message)])
        }
        let (source, type, size, placed) = (file.source, file.type, file.size, file.placed)
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
        case .recorded: return .values([ValueConversion.lua(attachment)])
        case .refused(let message): return .values([.nil, .text(message)])
        case .phaseOver: return .kill(.time)
        }
    }

    /// A file checked for attaching: the file the script named, its type and size, and the
    /// file in the request's folder that is attached.
    private struct ReadyFile {
        let source: URL
        let type: MediaType
        let size: Int
        let placed: URL
    }

    /// A file of the media directory: opened once, checked and copied from that one
    /// descriptor; links, `..` and special files refused.
    private func mediaDirectoryFile(_ relative: String, in media: URL, path: String, url: URL, run: RequestRun) -> Result<ReadyFile, HostFailure> {
        let file: MediaDirectoryFile
        let sniffed: MediaType?
        do throws(MediaDirectoryFile.Refusal) {
            file = try MediaDirectoryFile.open(relative, in: media, shownAs: path)
            sniffed = MediaType.sniff(try file.head())
        } catch {
            return .failure(HostFailure(error.message))
        }
        do {
            _ = try AttachmentKind.check(type: sniffed?.uti, size: file.size)
        } catch {
            return .failure(HostFailure(error.message))
        }
        guard let type = sniffed else { return .failure(HostFailure("unsupported type: the file's bytes are of no known type")) }
        do throws(MediaDirectoryFile.Refusal) {
            let (placed, size) = try placeCopy(of: file, named: url, type: type, run: run)
            return .success(ReadyFile(source: url, type: type, size: size, placed: placed))
        } catch {
            return .failure(HostFailure(error.message))
        }
    }

    /// A download of this request or a file a media answer names.
    private func requestFile(_ url: URL, path: String, run: RequestRun) -> Result<ReadyFile, HostFailure> {
        guard let source = readableFile(url, run: run) else {
            return .failure(HostFailure("not allowed: \(path) is neither a download of this request nor a file of the media directory"))
        }
        let sniffed: MediaType?
        let size: Int
        do {
            sniffed = try MediaType.sniff(fileAt: source)
            size = (try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            return .failure(HostFailure("cannot read \(path): \(error.localizedDescription)"))
        }
        do {
            _ = try AttachmentKind.check(type: sniffed?.uti, size: size)
        } catch {
            return .failure(HostFailure(error.message))
        }
        guard let type = sniffed else { return .failure(HostFailure("unsupported type: the file's bytes are of no known type")) }
        // iOS decides an attachment's type by its extension: a file that is not one of this
        // request's downloads is copied into the request's folder under the right name.
        do {
            return .success(ReadyFile(source: source, type: type, size: size, placed: try place(source, type: type, run: run)))
        } catch {
            return .failure(HostFailure("cannot copy \(path) for attaching: \(error.localizedDescription)"))
        }
    }

    /// The file when the script may attach it: a download of this request or a file that an
    /// answer given in place of the network names (files of the media directory are opened by
    /// ``MediaDirectoryFile``).
    private func readableFile(_ url: URL, run: RequestRun) -> URL? {
        let path = url.resolvingSymlinksInPath().path
        let directory = folder(of: run).resolvingSymlinksInPath().path + "/"
        if path.hasPrefix(directory), FileManager.default.isReadableFile(atPath: path) { return url }
        if host.services.answersName(path, for: run.answers), FileManager.default.isReadableFile(atPath: path) { return url }
        return nil
    }

    /// The path inside the media directory that `path` names — a relative path, or an absolute
    /// one under the folder as the host was given it — or nil when it names none (the `..` of
    /// a relative path is refused when the file is opened, never resolved here).
    static func mediaRelativePath(_ path: String, in media: URL) -> String? {
        guard path.hasPrefix("/") else { return path }
        let folder = media.standardizedFileURL.path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// Copies a file of the media directory into the request's folder under its type's
    /// extension, once per request however often it is attached; the copy and its size.
    private func placeCopy(of file: MediaDirectoryFile, named source: URL, type: MediaType, run: RequestRun) throws(MediaDirectoryFile.Refusal) -> (URL, Int) {
        do {
            try FileManager.default.createDirectory(at: folder(of: run), withIntermediateDirectories: true)
        } catch {
            throw MediaDirectoryFile.Refusal(message: "cannot copy \(file.shownPath) for attaching: \(error.localizedDescription)")
        }
        let stem = source.deletingPathExtension().lastPathComponent
        let target = folder(of: run).appendingPathComponent("\(stem)-\(Self.pathDigest(source.path)).\(type.fileExtension)")
        if let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.intValue {
            return (target, size)
        }
        return (target, try file.copy(to: target))
    }

    /// The file in the request's folder with its type's extension (copied there if needed).
    /// A file is copied once per request however often it is attached: its copy is named for
    /// its path, and a copy already there is used again.
    private func place(_ source: URL, type: MediaType, run: RequestRun) throws -> URL {
        let directory = folder(of: run)
        let resolved = source.resolvingSymlinksInPath().path
        if resolved.hasPrefix(directory.resolvingSymlinksInPath().path + "/"), source.pathExtension.lowercased() == type.fileExtension {
            return source
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stem = source.deletingPathExtension().lastPathComponent
        let target = directory.appendingPathComponent("\(stem)-\(Self.pathDigest(resolved)).\(type.fileExtension)")
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
